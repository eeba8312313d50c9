// Writes zips for tests and fuzzing seeds: damaged ones (a size that lies)
// as readily as sound ones.

// A plain zip (no zip64) of {name, data, method, crc, size}, size as declared.
export function writeZip(members) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name);
    const header = (signature, isCentral) => {
      const fields = Buffer.alloc(isCentral ? 46 : 30);
      let at = 0;
      const put = (value, bytes) => {
        fields.writeUIntLE(value, at, bytes);
        at += bytes;
      };
      put(signature, 4);
      if (isCentral) put(20, 2);
      put(20, 2);
      put(0, 2);
      put(member.method, 2);
      put(0, 4);
      put(member.crc, 4);
      put(member.data.length, 4);
      put(member.size, 4);
      put(name.length, 2);
      put(0, 2);
      if (isCentral) {
        put(0, 6);
        put(0, 4);
        put(offset, 4);
      }
      return Buffer.concat([fields, name]);
    };
    locals.push(header(0x04034b50, false), member.data);
    central.push(header(0x02014b50, true));
    offset += locals.at(-2).length + member.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
