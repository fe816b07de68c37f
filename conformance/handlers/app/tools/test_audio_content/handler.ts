import { WAV } from '../../lib/media.js';

export default () => Audio(WAV, 'audio/wav');
