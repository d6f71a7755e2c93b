import { DELETE_VIEWS, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, DELETE_VIEWS);
