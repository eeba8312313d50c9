// Shared helpers for the JS tests: paths, the corpus, speedscope's schema.
import { existsSync, openAsBlob, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

import Ajv from 'ajv';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = process.env.INSTRUMENTSCOPE_CORPUS ?? join(ROOT, '..', 'shared', 'corpus');
export const CORPUS_PRESENT = existsSync(CORPUS);
export const CORPUS_SKIP = CORPUS_PRESENT ? false : 'the shared corpus (../shared/corpus) is absent';

export const JMH = 'openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace';
export const UNIPROF_EXPORT = 'shadi-gamal__uniprof/tests/fixtures/test-simple-export.xml.gz';

export function corpusFile(relative) {
  return join(CORPUS, relative);
}

/** A folder as the API takes it: [{path, data: Blob}], paths inside the folder. */
export async function folderFiles(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath ?? entry.path, entry.name);
    files.push({ path: full.slice(folder.length + 1), data: await openAsBlob(full) });
  }
  return files;
}

export function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export const packageVersion = readJson(join(ROOT, 'package.json')).version;

const require = createRequire(import.meta.url);
const schema = readJson(require.resolve('speedscope/dist/release/file-format-schema.json'));
const validateSchema = new Ajv({ allErrors: true }).compile(schema);

/** Throws with ajv's findings unless `file` matches speedscope's own schema. */
export function assertSpeedscopeSchema(file) {
  if (!validateSchema(file)) {
    throw new Error(`not a valid speedscope file: ${JSON.stringify(validateSchema.errors.slice(0, 5))}`);
  }
}

/** A profile with each run of consecutive samples of one stack made one (an evented one as it is). */
export function withRunsMerged(profile) {
  if (profile.type !== 'sampled') return profile;
  const samples = [];
  const weights = [];
  profile.samples.forEach((stack, i) => {
    if (samples.length && JSON.stringify(samples.at(-1)) === JSON.stringify(stack)) {
      weights[weights.length - 1] += profile.weights[i];
    } else {
      samples.push(stack);
      weights.push(profile.weights[i]);
    }
  });
  return { ...profile, samples, weights };
}
