import { PNG } from '../../lib/media.js';

export default () => Image(PNG, 'image/png');
