// The registry of tree-sitter languages: language name (as detectLanguage
// returns it) -> its spec. Owns nothing but the list; adding a language is one
// import and one line here.

import type { LangSpec } from '../treesitter.js';
import { c } from './c.js';
import { cpp } from './cpp.js';
import { csharp } from './csharp.js';
import { go } from './go.js';
import { java } from './java.js';
import { kotlin } from './kotlin.js';
import { php } from './php.js';
import { python } from './python.js';
import { ruby } from './ruby.js';
import { rust } from './rust.js';
import { solidity } from './solidity.js';
import { swift } from './swift.js';

export const LANGS: Record<string, LangSpec> = {
  c,
  cpp,
  csharp,
  go,
  java,
  kotlin,
  php,
  python,
  ruby,
  rust,
  solidity,
  swift,
};
