// What the page uses that a browser may lack, said on the page with what it
// costs the user and what to do instead.

/**
 * What this browser lacks of what the page uses, each with what it costs the
 * user: WebGL (speedscope draws with it; a headless browser or a setting may
 * withhold it), reading a dropped folder, and picking one.
 */
function missingFeatures() {
  const missing = [];
  const canvas = document.createElement('canvas');
  if (!(canvas.getContext('webgl2') || canvas.getContext('webgl'))) {
    missing.push('This browser gives the page no WebGL (a headless browser, or WebGL turned off), so ' +
      'speedscope\'s viewer cannot draw flame graphs here: recordings still open, with their pickers ' +
      'and status, and Download .speedscope.json saves them for a viewer elsewhere.');
  }
  if (!('webkitGetAsEntry' in DataTransferItem.prototype)) {
    missing.push('This browser cannot read a dropped folder: zip the .trace folder and drop the zip.');
  }
  if (!('webkitdirectory' in HTMLInputElement.prototype)) {
    missing.push('This browser cannot pick a folder: zip the .trace folder and choose the zip.');
  }
  return missing;
}

/** Says in `note` what this browser lacks; hides `folderPicker` where it cannot pick a folder. */
export function showMissingFeatures(note, folderPicker) {
  const missing = missingFeatures();
  if (!('webkitdirectory' in HTMLInputElement.prototype)) folderPicker.closest('label').hidden = true;
  note.textContent = missing.join(' ');
  note.hidden = missing.length === 0;
}
