#!/usr/bin/env python3
"""Writes the catalogue's variants of bundle-valid-control.zip and valid-control.xml:
empty members, cyclic binary plists and keyed archives, out-of-order timestamps, a
System Trace's tables beside the control's samples, damaged.

    python3 tests/malformed/make-variants.py    (from the repository's top)

Their expected outcomes are in manifest.json; rerun this only to change them.
"""
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONTROL = os.path.join(HERE, 'bundle-valid-control.zip')
STORE = 'x.trace/corespace/run1/core/stores/indexed-store-0/'
UNIQUER_DATA = 'x.trace/corespace/run1/core/uniquing/arrayUniquer/integeruniquer.data'


class Uid:
    def __init__(self, value):
        self.value = value


def bplist_from_objects(objects, top=0):
    """bplist00 of already encoded objects, with one-byte offsets and references."""
    out = bytearray(b'bplist00')
    offsets = []
    for encoded in objects:
        offsets.append(len(out))
        out += encoded
    table = len(out)
    assert table < 256 and len(objects) < 256
    out += bytes(offsets)
    out += bytes(6) + bytes([1, 1]) + struct.pack('>QQQ', len(objects), top, table)
    return bytes(out)


def bplist(root):
    """bplist00 of a small tree of dicts, lists, ASCII strings, ints and Uids."""
    objects = []

    def add(value):
        index = len(objects)
        objects.append(None)
        if isinstance(value, dict):
            keys = [add(key) for key in value]
            values = [add(item) for item in value.values()]
            objects[index] = bytes([0xD0 | len(keys)]) + bytes(keys) + bytes(values)
        elif isinstance(value, list):
            elements = [add(item) for item in value]
            objects[index] = bytes([0xA0 | len(elements)]) + bytes(elements)
        elif isinstance(value, str):
            text = value.encode('ascii')
            marker = bytes([0x50 | len(text)]) if len(text) < 15 else bytes([0x5F, 0x10, len(text)])
            objects[index] = marker + text
        elif isinstance(value, Uid):
            objects[index] = bytes([0x80, value.value])
        else:
            objects[index] = bytes([0x12]) + struct.pack('>i', value)
        return index

    add(root)
    return bplist_from_objects(objects)


def bundle_variant(name, replace=None, add=None):
    with zipfile.ZipFile(CONTROL) as control, \
            zipfile.ZipFile(os.path.join(HERE, name), 'w') as out:
        for info in control.infolist():
            out.writestr(info, (replace or {}).get(info.filename, control.read(info.filename)))
        for path, data in (add or {}).items():
            out.writestr(zipfile.ZipInfo(path, (1980, 1, 1, 0, 0, 0)), data)


# An array whose one element is itself.
self_containing = bplist_from_objects([bytes([0xA1, 0])])
# A keyed archive whose root object's $0, where a dictionary belongs, is the root itself.
self_referring_archive = bplist({
    '$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': Uid(1)},
    '$objects': ['$null', {'$0': Uid(1), '$class': Uid(2)},
                 {'$classname': 'XREventDescriptor', '$classes': ['XREventDescriptor', 'NSObject']}],
})

bundle_variant('bundle-empty-bulkstore.zip', replace={STORE + 'bulkstore': b''})
bundle_variant('bundle-empty-schema.zip', replace={STORE + 'schema.xml': b''})
bundle_variant('bundle-empty-uniquer.zip', replace={UNIQUER_DATA: b''})
bundle_variant('bundle-form-empty.zip', add={'x.trace/form.template': b''})
bundle_variant('bundle-form-cyclic-plist.zip', add={'x.trace/form.template': self_containing})
bundle_variant('bundle-descriptor-cyclic-plist.zip',
               add={STORE + 'bulkstore_descriptor': self_containing})
bundle_variant('bundle-descriptor-cyclic-archive.zip',
               add={STORE + 'bulkstore_descriptor': self_referring_archive})

# A System Trace's stores beside the control's time-profile, without
# descriptors (their rows laid out by the schema, as Instruments 8 lays them
# out): the 18-byte interval topology (start bits 0-49, duration 50-99,
# category 1 100-121, category 2 122-143), then 4 bytes per other column.
ST_STORE = 'x.trace/corespace/run1/core/stores/indexed-store-1/'
STRINGS = 'x.trace/corespace/run1/core/uniquing/strings'
TOPOLOGY = [('start', 'XRStartTimeTypeID', 'XRTraceRelativeTimestampFieldID'),
            ('duration', 'XRDurationTypeID', 'XRDurationFieldID')]


def schema(name, columns):
    cells = ''.join(
        f'<column mnemonic="{mnemonic}" engineeringType="{kind}"' +
        (f' topologyField="{field}"' if field else '') + '/>' for mnemonic, kind, field in columns)
    return f'<schema name="{name}" topology="XRTD50_CC22_TypeID">{cells}</schema>'.encode()


def interval_rows(rows, tail_size):
    """A bulkstore of (start, duration, category 1, category 2, tail) rows."""
    row_size = 18 + tail_size
    out = bytearray(struct.pack('<IIIII', 0x12340A0A, 3, 40, 0x1000, row_size))
    out += bytes(0x1000 - len(out))
    for start, duration, first, second, tail in rows:
        topology = start | duration << 50 | first << 100 | second << 122
        out += topology.to_bytes(18, 'little') + tail
    return bytes(out)


def strings_plist(strings):
    items = ''.join(f'<string>{text}</string>' for text in strings)
    return ('<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>' + items +
            '</array></plist>').encode()


# syscall: thread 1 (tid 7 of pid 42), its call the strings' index, process 0, no backtrace.
SYSCALL = schema('syscall', TOPOLOGY + [
    ('thread', 'XRThreadTypeID', 'XRCategory1FieldID'),
    ('call', 'XRSystemCallNameTypeID', 'XRCategory2FieldID'),
    ('process', 'XRProcessTypeID', None),
    ('backtrace', 'XRBacktraceTypeID', None)])
CALLS = interval_rows([(1000, 500, 1, 1, struct.pack('<II', 0, 0xFFFFFFFF)),
                       (2000, 300, 1, 372, struct.pack('<II', 0, 0xFFFFFFFF))], 8)
bundle_variant('bundle-syscall-unknown-call.zip', add={
    ST_STORE + 'schema.xml': SYSCALL, ST_STORE + 'bulkstore': CALLS,
    STRINGS: strings_plist(['', 'MSC_mach_msg2_trap'])})
bundle_variant('bundle-syscall-no-strings.zip', add={
    ST_STORE + 'schema.xml': SYSCALL, ST_STORE + 'bulkstore': CALLS})
# thread-state without its start: its thread is category 1, its state category 2.
bundle_variant('bundle-thread-state-no-start.zip', add={
    ST_STORE + 'schema.xml': schema('thread-state', TOPOLOGY[1:] + [
        ('thread', 'XRThreadTypeID', 'XRCategory1FieldID'),
        ('state', 'XRThreadStateTypeID', 'XRCategory2FieldID'),
        ('process', 'XRProcessTypeID', None)]),
    ST_STORE + 'bulkstore': interval_rows([(1000, 500, 1, 1, struct.pack('<I', 0))], 4),
    STRINGS: strings_plist(['', 'Running'])})

# cpu-state whose one row names thread 9, past the uniquer's arrays.
bundle_variant('bundle-cpu-state-dangling-thread.zip', add={
    ST_STORE + 'schema.xml': schema('cpu-state', TOPOLOGY + [
        ('cpu', 'XRCPUCoreTypeID', 'XRCategory1FieldID'),
        ('state', 'XRCPUStateTypeID', 'XRCategory2FieldID'),
        ('thread', 'XRThreadTypeID', None)]),
    ST_STORE + 'bulkstore': interval_rows([(1000, 500, 0, 1, struct.pack('<I', 9))], 4),
    STRINGS: strings_plist(['', 'Running'])})
# thread-narrative without its narrative: what its rows tell of is not known.
bundle_variant('bundle-thread-narrative-no-narrative.zip', add={
    ST_STORE + 'schema.xml': schema('thread-narrative', TOPOLOGY + [
        ('process', 'XRProcessTypeID', 'XRCategory1FieldID'),
        ('thread', 'XRThreadTypeID', 'XRCategory2FieldID'),
        ('backtrace', 'XRBacktraceTypeID', None)]),
    ST_STORE + 'bulkstore': interval_rows([(1000, 500, 0, 1, struct.pack('<I', 0xFFFFFFFF))], 4)})

# The first row's time moved after the second's.
with open(os.path.join(HERE, 'valid-control.xml')) as control:
    xml = control.read()
first_time = '<sample-time id="1">1000</sample-time>'
assert first_time in xml
with open(os.path.join(HERE, 'out-of-order.xml'), 'w') as out:
    out.write(xml.replace(first_time, '<sample-time id="1">5000000</sample-time>'))
