/** The web console's files (not part of the API's document). */
import { object } from './common';

/** One of the console's files or vendored assets, as found at start (anything else is a 400). */
export const consoleFileParams = (files: string[]) => object({ file: { enum: files } }, ['file']);
