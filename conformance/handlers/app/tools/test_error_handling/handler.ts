export default () => {
  throw new ToolError('This tool intentionally returns an error for testing');
};
