export default () => 'This is a simple text response for testing.';
