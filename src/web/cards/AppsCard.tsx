// Custom apps: web apps uploaded to the gateway and served at /apps/<name>/. Upload a built folder (its top folder
// is dropped, so its index.html lands at the app's root) or loose files; open or delete the uploaded ones.

import { type FormEvent, useState } from 'react';
import { appPagePath, appPath } from '../../contract/paths.js';
import { client, messageOf, refusal, requestHeaders } from '../api';
import { bytes } from '../format';
import { usePolling } from '../hooks';
import { Card, ErrorLine } from './Card';

type Mode = 'folder' | 'files';

interface PickedFile {
  file: File;
  /** The path inside the app, e.g. assets/app.js. */
  path: string;
}

interface Uploaded {
  name: string;
  files: string[];
}

/** Folder mode: `dist/assets/app.js` becomes `assets/app.js`. */
function pickedFiles(list: FileList | null, mode: Mode): PickedFile[] {
  return [...(list ?? [])].map((file) => ({
    file,
    path: mode === 'folder' ? file.webkitRelativePath.split('/').slice(1).join('/') || file.name : file.name,
  }));
}

/** XMLHttpRequest rather than fetch: it reports upload progress. */
function upload(name: string, files: PickedFile[], onProgress: (share: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const { file, path } of files) form.append('files', file, path);
    const request = new XMLHttpRequest();
    request.open('POST', appPath(name));
    for (const [header, value] of Object.entries(requestHeaders())) request.setRequestHeader(header, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve(JSON.parse(request.responseText) as Uploaded);
      reject(refusal(request.status, request.responseText));
    };
    request.onerror = () =>
      reject(new Error('the gateway closed the connection before answering (is the app over the size limit?)'));
    request.send(form);
  });
}

function AppRow({ name, onDeleted }: { name: string; onDeleted: (error: string | null) => void }) {
  const [confirming, setConfirming] = useState(false);
  async function remove() {
    try {
      await client.apps.remove(name);
      onDeleted(null);
    } catch (error) {
      onDeleted(messageOf(error));
    }
    setConfirming(false);
  }
  return (
    <li data-testid={`app-${name}`}>
      <span className="mono ellipsis">{name}</span>
      {confirming ? (
        <span className="row-actions">
          <span className="muted">Delete {name}?</span>
          <button
            type="button"
            className="small danger"
            data-testid={`app-delete-confirm-${name}`}
            onClick={() => void remove()}
          >
            Delete
          </button>
          <button type="button" className="small ghost" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <span className="row-actions">
          <a
            className="button small"
            href={appPagePath(name)}
            target="_blank"
            rel="noopener"
            data-testid={`app-open-${name}`}
          >
            Open ↗
          </a>
          <button
            type="button"
            className="small ghost"
            data-testid={`app-delete-${name}`}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  );
}

export function AppsCard() {
  const list = usePolling(() => client.apps.list(), 0);
  const [name, setName] = useState('');
  const [mode, setMode] = useState<Mode>('folder');
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const totalBytes = files.reduce((sum, { file }) => sum + file.size, 0);
  const hasEntry = files.some(({ path }) => path === 'index.html');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    setProgress(0);
    try {
      const answer = await upload(name.trim(), files, setProgress);
      setDone(`Uploaded ${answer.files.length} files to /apps/${answer.name}/`);
      setFiles([]);
      list.reload();
    } catch (failure) {
      setError(messageOf(failure));
    }
    setProgress(null);
  }

  function chooseMode(next: Mode) {
    setMode(next);
    setFiles([]);
  }

  return (
    <Card id="apps" title="Custom apps" span={6}>
      <form className="upload" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="app-name">App name</label>
          <input
            id="app-name"
            data-testid="apps-name"
            value={name}
            placeholder="my-app"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <fieldset className="segmented" aria-label="Upload mode">
          {(['folder', 'files'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              aria-pressed={mode === choice}
              data-testid={`apps-mode-${choice}`}
              onClick={() => chooseMode(choice)}
            >
              {choice === 'folder' ? 'Folder' : 'Files'}
            </button>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="app-files">
            {mode === 'folder' ? 'Built folder (e.g. dist)' : 'Files (placed at the app root)'}
          </label>
          <input
            key={mode}
            id="app-files"
            type="file"
            multiple
            data-testid="apps-input"
            ref={(input) => {
              if (input) input.webkitdirectory = mode === 'folder';
            }}
            onChange={(event) => setFiles(pickedFiles(event.target.files, mode))}
          />
        </div>
        {files.length > 0 ? (
          <p className="hint" data-testid="apps-picked">
            {files.length} files, {bytes(totalBytes)}
            {hasEntry ? '' : ' · no index.html at the top: the app would have no entry page'}
          </p>
        ) : null}
        <button
          type="submit"
          className="primary"
          data-testid="apps-upload"
          disabled={!name.trim() || files.length === 0 || progress !== null}
        >
          {progress === null ? 'Upload' : `Uploading ${Math.round(progress * 100)}%`}
        </button>
        {progress !== null ? (
          <div className="bar ok" aria-hidden="true" data-testid="apps-progress">
            <span style={{ width: `${(progress * 100).toFixed(1)}%` }} />
          </div>
        ) : null}
        {done ? (
          <p className="result-line" role="status" data-testid="apps-done">
            {done}
          </p>
        ) : null}
        <ErrorLine message={error} testId="apps-error" />
      </form>
      <h3 className="subhead">
        Uploaded <span className="muted">{list.data?.apps.length ?? ''}</span>
      </h3>
      <ul className="app-list" data-testid="apps-list">
        {list.data?.apps.map((app) => (
          <AppRow
            key={app}
            name={app}
            onDeleted={(failure) => {
              setError(failure);
              list.reload();
            }}
          />
        ))}
        {list.data?.apps.length === 0 ? <li className="muted">No apps yet.</li> : null}
      </ul>
      <p className="hint">
        Build an app with base <code>/apps/&lt;name&gt;/</code> and upload its output folder. Apps are public: never put
        keys in them.
      </p>
      <ErrorLine message={list.error} />
    </Card>
  );
}
