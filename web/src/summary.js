// The summary of an import as the facade hands it out: the core's JSON, and
// which core ran it (result.core: {threaded, why}, see coreChoice in core.js).

/** The summary object of a core's `result`. */
export function summaryOf(result) {
  const summary = JSON.parse(result.summary);
  if (result.core) summary.core = result.core;
  return summary;
}
