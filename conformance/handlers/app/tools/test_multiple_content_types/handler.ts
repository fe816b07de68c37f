import { PNG } from '../../lib/media.js';

export default () => [
  'Multiple content types test:',
  Image(PNG, 'image/png'),
  TextResource(JSON.stringify({ test: 'data', value: 123 }), 'application/json', { uri: 'test://mixed-content-resource' }),
];
