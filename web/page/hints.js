// What the page tells a person to try when a recording cannot be opened, by
// the error's code.

const EXPORT_COMMAND = 'xctrace export --input x.trace --xpath ' +
  '\'/trace-toc/run[1]/data/table[@schema="time-profile"]\' --output x.xml';

const DAMAGED = 'The file is damaged. Copy it again from where it was recorded; ' +
  'if you zipped it yourself, zip the whole .trace folder again.';
const CUT_OFF = 'The file ends early: it was probably cut off while copying or downloading. Copy it again.';
const BAD_EXPORT = 'The export is malformed at the place shown. Export the table again with xctrace export.';
const REEXPORT = `On a Mac, export the Time Profiler table and open the XML here: ${EXPORT_COMMAND}`;

export const SYMBOLS_HINT = 'The symbol file was set aside. Add the app\'s .dSYM folder as Xcode made it ' +
  '(or the app\'s binary), then open the recording again.';

/** What to try, per error code (see ImportErrorCode in src/index.d.ts). */
export const HINTS = {
  INVALID_ARGUMENT: 'Open a recording with the pickers above.',
  EMPTY_INPUT: 'The file is empty. Copy it again from where it was recorded.',
  UNKNOWN_FORMAT: 'Open a zipped .trace, a .trace folder (with "Choose a .trace folder…", or by dropping it), ' +
    'an xctrace export (.xml or .xml.gz), or paste a Deep Copy of an Instruments call tree.',
  TRUNCATED: CUT_OFF,
  GZIP_TRUNCATED: CUT_OFF,
  GZIP_CORRUPT: DAMAGED,
  ZIP_CORRUPT: DAMAGED,
  INFLATE_CORRUPT: DAMAGED,
  ZIP_UNSUPPORTED: 'Zip the .trace folder again with plain zip (zip -r x.trace.zip x.trace), or open the folder itself.',
  PLIST_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  KEYED_ARCHIVE_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  TYPEDSTREAM_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  BUNDLE_CORRUPT: `A file inside the .trace is damaged. ${REEXPORT}`,
  BUNDLE_NO_SAMPLES: 'This recording holds no samples this page reads. Record with the Time Profiler instrument ' +
    '(CPU) or Allocations (memory), or copy the whole .trace folder if parts of it were left behind.',
  BUNDLE_UNSUPPORTED: REEXPORT,
  XML_SYNTAX: BAD_EXPORT,
  XML_FORBIDDEN: 'The XML declares a DTD or entities, which xctrace never writes. Export the table again.',
  XML_NOT_XCTRACE: `This XML is not an xctrace export. ${REEXPORT}`,
  XML_TABLE_OF_CONTENTS: `This is an export's table of contents, not a table. Export the samples: ${EXPORT_COMMAND}`,
  XML_NO_SAMPLE_TABLE: `The export holds no CPU samples. Export the time-profile (or time-sample, cpu-profile) table: ${EXPORT_COMMAND}`,
  XML_NO_SAMPLES: 'The table has no samples: the recording may have been stopped at once. Record longer.',
  XML_DANGLING_REF: BAD_EXPORT,
  XML_DUPLICATE_ID: BAD_EXPORT,
  XML_REF_MISMATCH: BAD_EXPORT,
  XML_BAD_VALUE: BAD_EXPORT,
  XML_BAD_STRUCTURE: BAD_EXPORT,
  BAD_SAMPLE: BAD_EXPORT,
  DEEP_COPY_BAD_ROW: 'Copy the call tree again in Instruments (select its rows, Edit > Deep Copy) and paste it unchanged.',
  DEEP_COPY_NO_SAMPLES: 'Expand the call tree in Instruments (Option-click the disclosure triangles), select its rows, then Edit > Deep Copy.',
  // NAME becomes the limit the message names.
  LIMIT_EXCEEDED: 'The recording reaches one of the importer\'s limits. The command line can raise it ' +
    '(npx instrumentscope x.trace.zip --limit NAME=N), or open one run at a time (--list, then --run N); ' +
    'a browser tab holds at most 4 GB.',
  RUN_NOT_FOUND: 'Choose one of the runs the recording holds.',
  MACHO_CORRUPT: SYMBOLS_HINT,
  MACHO_UNSUPPORTED: SYMBOLS_HINT,
};
