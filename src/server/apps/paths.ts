// What the gateway refuses of a hosted app's name or paths, as refusals of a kind with a message saying what to
// change; the rules themselves are the domain's (domain/apps.ts).

import { APP_NAME_RULE, appPathProblem, isAppName } from '../../domain/apps.js';
import { DomainError } from '../../domain/errors.js';

/** A request about an app that is refused, with the kind of refusal and a message saying what to change. */
export class AppRefusal extends DomainError {}

/** Throws an INVALID_REQUEST refusal stating the rule when `name` is not a valid app name. */
export function checkAppName(name: string): void {
  if (!isAppName(name))
    throw new AppRefusal('INVALID_REQUEST', `invalid app name ${JSON.stringify(name)}: ${APP_NAME_RULE}`);
}

/**
 * The relative path of an uploaded file from the filename of its part. Backslashes count as '/', for clients on
 * Windows. Throws a 400 refusal saying what is wrong.
 */
export function uploadedFilePath(filename: string): string {
  const path = filename.replaceAll('\\', '/');
  const problem = appPathProblem(path);
  if (problem !== null)
    throw new AppRefusal('INVALID_REQUEST', `invalid file name ${JSON.stringify(filename)}: ${problem}`);
  return path;
}

/**
 * The segments of the file a URL asks for inside an app (the decoded part after `/apps/<name>/`); an empty list
 * for the app's root. Throws a 400 refusal for a path that could leave the app folder.
 */
export function requestedSegments(urlPath: string): string[] {
  const path = urlPath.endsWith('/') ? urlPath.slice(0, -1) : urlPath;
  if (path === '') return [];
  const problem = appPathProblem(path);
  if (problem !== null) throw new AppRefusal('INVALID_REQUEST', `invalid path ${JSON.stringify(urlPath)}: ${problem}`);
  return path.split('/');
}
