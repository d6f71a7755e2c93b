import { EDIT_VIEWS, viewsOf } from '../common/views.js';
import { spec } from './spec.js';

export const views = viewsOf(spec, EDIT_VIEWS);
