// Language detection by file name. The name is what the `language` column,
// `tree` and fenced blocks in `context` show; the parser is chosen from it.

const BY_EXT: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  go: 'go', py: 'python', pyi: 'python', rs: 'rust', java: 'java', sol: 'solidity',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  cs: 'csharp', rb: 'ruby', php: 'php', kt: 'kotlin', kts: 'kotlin', swift: 'swift',
  scala: 'scala', sh: 'bash', bash: 'bash', zsh: 'bash', lua: 'lua',
  json: 'json', yaml: 'yaml', yml: 'yaml', toml: 'toml', md: 'markdown', markdown: 'markdown',
  html: 'html', htm: 'html', css: 'css', scss: 'scss', sql: 'sql', xml: 'xml',
  proto: 'protobuf', txt: 'text', s: 'asm', S: 'asm',
};

const BY_NAME: Record<string, string> = {
  Makefile: 'make', makefile: 'make', GNUmakefile: 'make', Dockerfile: 'dockerfile',
  Kconfig: 'kconfig', 'CMakeLists.txt': 'cmake',
};

export function detectLanguage(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const byName = BY_NAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return 'text';
  const ext = base.slice(dot + 1);
  return BY_EXT[ext] ?? BY_EXT[ext.toLowerCase()] ?? 'text';
}

/** The fence tag a prompt-ready block uses for a language. */
export function fenceTag(language: string): string {
  return language === 'text' ? '' : language;
}
