// Schemas of the hosted apps API. App names are checked by the routes (400 stating the rule), not here, so the
// parameters are plain strings.

import Type from 'typebox';
import { APP_NAME_RULE, MAX_APP_FILES } from '../../domain/apps.js';

export const AppNameParam = Type.Object({
  name: Type.String({ description: `the app's name: ${APP_NAME_RULE}` }),
});

export const AppFileParams = Type.Object({
  name: AppNameParam.properties.name,
  '*': Type.String({ description: 'the path of a file inside the app; empty for index.html' }),
});

export const AppUploadBody = Type.Object(
  {
    files: Type.Array(Type.String({ format: 'binary' }), {
      maxItems: MAX_APP_FILES,
      description: "one part per file; the part's filename is the file's path inside the app, e.g. assets/app.js",
    }),
  },
  { title: 'AppUpload' },
);

export const AppUploadResponse = Type.Object(
  {
    name: Type.String(),
    files: Type.Array(Type.String(), { description: '<name>/<path> of every file of the app, sorted' }),
  },
  { title: 'AppUploadResult' },
);

export const AppListResponse = Type.Object(
  { apps: Type.Array(Type.String(), { description: 'names of the uploaded apps, sorted' }) },
  { title: 'AppList' },
);

export const AppDeleteResponse = Type.Object({ deleted: Type.String() }, { title: 'AppDeleted' });
