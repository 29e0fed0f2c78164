/**
 * What team settings may not set in a workspace: variables that change how programs load or
 * how shells start, and files where shells or the coding agents read their start-up
 * configuration. A Global variable or file applies to every member's workspace, so either would
 * run an admin's code inside every member's agent turns; Hangar writes the agents' own
 * configuration itself.
 */

/** Names that make the dynamic loader, a shell, a language runtime or git run something else. */
const RESERVED_NAMES = new Set([
  'PATH', 'HOME', 'SHELL', 'USER', 'LOGNAME',
  'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'IFS', 'CDPATH', 'GLOBIGNORE', 'ZDOTDIR', 'INPUTRC',
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS',
  'PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONINSPECT', 'PYTHONBREAKPOINT',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_ASKPASS', 'SSH_ASKPASS', 'GIT_EDITOR', 'GIT_EXEC_PATH', 'GIT_PAGER', 'GIT_PROXY_COMMAND',
  'GIT_EXTERNAL_DIFF', 'GIT_TEMPLATE_DIR', 'GIT_DIR', 'GIT_WORK_TREE',
  'EDITOR', 'VISUAL', 'PAGER', 'BROWSER',
]);
/** Families: the loader's (`LD_PRELOAD`, `LD_LIBRARY_PATH`, …), exported shell functions, git's config injection, and Hangar's own. */
const RESERVED_PREFIXES = ['LD_', 'DYLD_', 'BASH_FUNC_', 'GIT_CONFIG', 'HANGAR_'];

/** Why a variable name is reserved, or null. */
export function reservedVariable(key: string): string | null {
  const upper = key.toUpperCase();
  const family = RESERVED_PREFIXES.find((p) => upper.startsWith(p));
  if (!RESERVED_NAMES.has(upper) && !family) return null;
  return `${key} is reserved: ${family ? `${family}* variables` : 'it'} would change how programs load or shells start in every workspace the setting reaches`;
}

/** Shell start-up files, git's global configuration and the coding agents' own configuration. */
const PROTECTED_FILES = ['~/.bashrc', '~/.bash_profile', '~/.bash_login', '~/.bash_logout', '~/.profile', '~/.zshrc', '~/.zshenv', '~/.zprofile', '~/.zlogin', '~/.inputrc', '~/.gitconfig'];
const PROTECTED_DIRECTORIES = ['~/.claude', '~/.codex', '~/.cursor', '~/.pi', '~/.hangar', '~/.config/opencode', '~/.config/git', '~/.config/fish', '~/.ssh'];

/** Why a (normalised `~/…`) file path is protected, or null. */
export function protectedFilePath(path: string): string | null {
  if (PROTECTED_FILES.includes(path)) return `${path} is a shell or git start-up file, which would run in every workspace the file reaches`;
  const dir = PROTECTED_DIRECTORIES.find((d) => path === d || path.startsWith(`${d}/`));
  if (dir) return `${dir}/ holds configuration Hangar writes for the coding agents and the workspace (its skills, MCP servers and credentials placeholders)`;
  return null;
}
