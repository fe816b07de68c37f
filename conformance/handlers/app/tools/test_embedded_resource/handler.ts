export default () => TextResource('This is an embedded resource content.', 'text/plain',
  { uri: 'test://embedded-resource' });
