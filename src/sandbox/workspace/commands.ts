/**
 * What runs inside a workspace, as `hangar` through execs: files written, repositories checked
 * out, commands, hooks and terminals. A missing or stopped container becomes the runtime's
 * own errors (src/sandbox/workspace/errors.ts).
 */
import { rm } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { dockerStatus } from '../errors';
import { SANDBOX_HOME } from '../request';
import { checkoutPath, cloneOnHost, DEFAULT_CLONE_TIMEOUT_MS, DEFAULT_GIT_IDENTITY, EXTRACT_CHECKOUT_SCRIPT, packDirectory, PREPARE_CHECKOUT_SCRIPT } from './checkout';
import type { WorkspaceEngine } from './engine';
import { WorkspaceOperationError, workspaceDockerError } from './errors';
import { killSession, runExec, type RawExecRequest } from './exec';
import { buildFilesArchive, EXTRACT_FILES_SCRIPT, prepareWorkspaceFiles } from './files';
import { runWorkspaceHook } from './hook';
import { imageFiles } from './imageFiles';
import { LineSplitter } from './lines';
import { openWorkspaceTty } from './tty';
import type { ExecRequest, WorkspaceRuntime } from './types';

export type WorkspaceCommands = Pick<WorkspaceRuntime, 'writeFiles' | 'checkout' | 'exec' | 'killSession' | 'copyFromImage' | 'runHook' | 'openTty'>;

export function workspaceCommands(engine: WorkspaceEngine): WorkspaceCommands {
  const { options, log, container } = engine;
  const identity = options.gitIdentity ?? DEFAULT_GIT_IDENTITY;
  const cloneTimeoutMs = options.cloneTimeoutMs ?? DEFAULT_CLONE_TIMEOUT_MS;
  const fromImage = imageFiles(engine.docker, options.image);

  /** Runs a command as `hangar`, mapping a missing or stopped container to the runtime's errors. */
  async function run(replicaId: string, req: Omit<RawExecRequest, 'cwd'> & { cwd?: string }) {
    try {
      return await runExec(container(replicaId), { ...req, cwd: req.cwd ?? SANDBOX_HOME }, log);
    } catch (err) {
      throw workspaceDockerError(err, replicaId);
    }
  }

  /** A helper command whose stderr (and stdout) become the error text when it fails. */
  async function runQuiet(replicaId: string, argv: string[], stdin?: RawExecRequest['stdin']): Promise<{ exitCode: number; output: string }> {
    const decoder = new StringDecoder('utf8');
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 8192) output += decoder.write(chunk);
    };
    const { exitCode } = await run(replicaId, { argv, stdin, onStdout: collect, onStderr: collect });
    return { exitCode, output: (output + decoder.end()).trim() };
  }

  /** A failing consumer callback must not break the command. */
  function guarded(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      log.warn('workspace exec callback threw', { err });
    }
  }

  return {
    async writeFiles(replicaId, files) {
      const prepared = prepareWorkspaceFiles(files);
      if (!prepared.length) return;
      const archive = await buildFilesArchive(prepared);
      const { exitCode, output } = await runQuiet(replicaId, ['bash', '-c', EXTRACT_FILES_SCRIPT], archive);
      if (exitCode !== 0) throw new WorkspaceOperationError('writeFiles', `writing ${prepared.length} file(s) failed (exit ${exitCode})`, output);
    },

    async checkout(replicaId, repo) {
      const path = checkoutPath(repo);
      const prepare = await runQuiet(replicaId, ['bash', '-c', PREPARE_CHECKOUT_SCRIPT, 'hangar-checkout', path, identity.name, identity.email]);
      if (prepare.exitCode === 0) return { path, created: false };
      if (prepare.exitCode !== 10) throw new WorkspaceOperationError('checkout', `preparing ${path} failed (exit ${prepare.exitCode})`, prepare.output);
      const startedAt = Date.now();
      const { root, dir } = await cloneOnHost(repo, cloneTimeoutMs);
      try {
        const clonedAt = Date.now();
        const tar = packDirectory(dir);
        let packError: unknown = null;
        tar.once('error', (err: unknown) => (packError = err));
        const { exitCode, output } = await runQuiet(replicaId, ['bash', '-c', EXTRACT_CHECKOUT_SCRIPT, 'hangar-checkout', path], tar);
        if (packError) throw new WorkspaceOperationError('checkout', `reading the clone of ${repo.name} failed`, String(packError));
        if (exitCode === 3) return { path, created: false };
        if (exitCode !== 0) throw new WorkspaceOperationError('checkout', `copying ${repo.name} into the workspace failed (exit ${exitCode})`, output);
        log.info('workspace checkout', { replicaId, repo: repo.name, cloneMs: clonedAt - startedAt, copyMs: Date.now() - clonedAt });
        return { path, created: true };
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },

    async exec(replicaId, req: ExecRequest) {
      const lines = new LineSplitter((line) => guarded(() => req.onStdoutLine?.(line)));
      const stderr = new StringDecoder('utf8');
      const onStderr = (text: string) => text && guarded(() => req.onStderr?.(text));
      try {
        return await run(replicaId, {
          argv: req.argv,
          env: req.env,
          cwd: req.cwd,
          stdin: req.stdin,
          signal: req.signal,
          timeoutMs: req.timeoutMs,
          onSession: req.onSession && ((id) => guarded(() => req.onSession!(id))),
          onStdout: (chunk) => {
            if (req.onStdout) guarded(() => req.onStdout!(chunk));
            lines.push(chunk);
          },
          onStderr: (chunk) => onStderr(stderr.write(chunk)),
        });
      } finally {
        lines.end();
        onStderr(stderr.end());
      }
    },

    async killSession(replicaId, sessionId) {
      try {
        await killSession(container(replicaId), sessionId);
      } catch (err) {
        if (dockerStatus(err) === 404 || dockerStatus(err) === 409) return; // no container, or it is not running
        throw err;
      }
    },

    async copyFromImage(replicaId, path) {
      try {
        await fromImage.copyInto(container(replicaId), path);
      } catch (err) {
        throw workspaceDockerError(err, replicaId);
      }
      log.info('a file of the image was put into an older workspace', { replicaId, path });
    },

    runHook: async (replicaId, req) => {
      try {
        return await runWorkspaceHook(container(replicaId), req, log);
      } catch (err) {
        throw workspaceDockerError(err, replicaId);
      }
    },

    async openTty(replicaId, opts) {
      try {
        return await openWorkspaceTty(container(replicaId), opts, log);
      } catch (err) {
        throw workspaceDockerError(err, replicaId);
      }
    },
  };
}
