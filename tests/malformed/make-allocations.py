#!/usr/bin/env python3
"""Writes the catalogue's Allocations recordings: a small valid one (five
events of pid 42 on two threads, described by the run's shared data, as
cpp/formats/trace_bundle/FORMAT.md lays them out) and its damaged variants.

    python3 tests/malformed/make-allocations.py    (from the repository's top)

Their expected outcomes are in manifest.json; rerun this only to change them.
"""
import io
import os
import plistlib
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FORM_TEMPLATE = 'x.trace/form.template'
EVENTS = 'x.trace/Trace1.run/event_data_42.oa'
SHARED_DATA = 'x.trace/shared_data/1.run/00000000-0000-0000-0000-00000000A110.zip'

MALLOC, FREE, VM_ALLOCATE = 16, 19, 24
NONE = -1


class TypedStreamWriter:
    """An NSArchiver typedstream (version 4, system 1000) of the few kinds
    the Allocations shared data holds."""

    def __init__(self):
        self.out = bytearray(b'\x04\x0bstreamtyped\x81\xe8\x03')
        self.strings = []  # shared strings: type encodings and class names
        self.slots = []    # objects and classes, numbered together
        self.classes = {}  # name → slot

    def integer(self, value):
        if -110 <= value <= 127:
            self.out += struct.pack('<b', value)
        elif -0x8000 <= value < 0x8000:
            self.out += b'\x81' + struct.pack('<h', value)
        elif -0x80000000 <= value < 0x80000000:
            self.out += b'\x82' + struct.pack('<i', value)
        else:
            self.out += b'\x87' + struct.pack('<q', value)

    def reference(self, index):
        self.integer(index - 110)

    def shared_string(self, text):
        if text in self.strings:
            self.reference(self.strings.index(text))
            return
        self.strings.append(text)
        self.out += b'\x84'
        self.integer(len(text))
        self.out += text.encode('ascii')

    def class_chain(self, chain):
        """A class and its superclasses, e.g. [('NSNumber', 0), ('NSValue', 0), ('NSObject', 0)]."""
        if not chain:
            self.out += b'\x85'
            return
        name, version = chain[0]
        if name in self.classes:
            self.reference(self.classes[name])
            return
        self.out += b'\x84'
        self.shared_string(name)
        self.integer(version)
        self.classes[name] = len(self.slots)
        self.slots.append(name)
        self.class_chain(chain[1:])

    def object(self, chain, groups):
        """An object of `chain` whose groups are (type encoding, [values]);
        a value is an int, bytes (for '+' and '[Nc]'), a list of ints, or a
        function that writes an object."""
        self.out += b'\x84'
        self.slots.append(chain[0][0])
        self.class_chain(chain)
        for types, values in groups:
            self.group(types, values)
        self.out += b'\x86'

    def group(self, types, values):
        self.shared_string(types)
        for value in values:
            if callable(value):
                value()
            elif isinstance(value, bytes):
                if types == '+':
                    self.integer(len(value))
                self.out += value
            elif isinstance(value, list):
                for item in value:
                    self.integer(item)
            else:
                self.integer(value)

    # Foundation's classes, as Instruments archives them.
    def string(self, text):
        return lambda: self.object([('NSString', 1), ('NSObject', 0)], [('+', [text.encode('utf-8')])])

    def number(self, value):
        return lambda: self.object([('NSNumber', 0), ('NSValue', 0), ('NSObject', 0)],
                                   [('*', [lambda: self.c_string('q')]), ('q', [value])])

    def c_string(self, text):
        self.out += b'\x84'
        self.slots.append(text)
        self.shared_string(text)

    def data(self, payload):
        return lambda: self.object([('NSData', 0), ('NSObject', 0)],
                                   [('i', [len(payload)]), (f'[{len(payload)}c]', [payload])])

    def dictionary(self, entries):
        groups = [('i', [len(entries)])]
        for key, value in entries.items():
            groups.append(('@', [self.string(key)]))
            groups.append(('@', [value]))
        return lambda: self.object(
            [('NSMutableDictionary', 0), ('NSDictionary', 0), ('NSObject', 0)], groups)

    def bytes(self):
        return bytes(self.out)


def id_map(entries):
    """id_map_nsdata: a typedstream of a count, then (object, id) pairs;
    `entries` are (function writing the object with the given writer, id)."""
    writer = TypedStreamWriter()
    writer.group('i', [len(entries)])
    for write, ident in entries:
        writer.group('@', [lambda write=write: write(writer)])
        writer.group('i', [ident])
    return writer.bytes()


def backtrace(addresses):
    """An XRRawBacktrace of pid 42, leaf first."""
    return lambda writer: writer.object(
        [('XRRawBacktrace', 1), ('NSObject', 0)],
        [('ii', [42, len(addresses)]), (f'[{len(addresses)}Q]', [addresses]), ('i', [0])])


def category(name):
    return lambda writer: writer.object([('NSString', 1), ('NSObject', 0)],
                                        [('+', [name.encode('utf-8')])])


def shared_data(events, record_size=56, count=None, backtraces=None):
    categories = id_map([(category('Malloc 32 Bytes'), 1), (category('VM: Anonymous VM'), 2)])
    backtraces = backtraces or id_map([
        (backtrace([0x1000, 0x2000, 0x3000]), 1),
        (backtrace([0x1100, 0x2000, 0x3000]), 2),
        (backtrace([0x1200, 0x3000]), 3),
    ])
    writer = TypedStreamWriter()

    def substitutions(payload):
        return lambda: writer.object([('XRDescriptorSubstitutions', 0), ('NSObject', 0)],
                                     [('@', [writer.dictionary({'id_map_nsdata': writer.data(payload)})])])

    properties = writer.dictionary({
        '_version': writer.number(2),
        '_maxEventSize': writer.number(record_size),
        '_props': writer.dictionary({
            'next_event_id': writer.number(len(events) if count is None else count),
            'category_substitutions': substitutions(categories),
        }),
        '_substitutions': substitutions(backtraces),
    })
    descriptor = lambda: writer.object([('XREventDescriptor', 3), ('NSObject', 0)], [('@', [properties])])
    writer.group('@', [lambda: writer.object(
        [('XRObjectAllocRunSharedData', 0), ('NSObject', 0)],
        [('@', [writer.string('event_data_42.oa')]), ('@', [descriptor])])])
    return writer.bytes()


def event(time, address, size, kind, thread, category_id, backtrace_id, freed=NONE, free=NONE):
    allocation = kind in (MALLOC, VM_ALLOCATE)
    return struct.pack('<QQIiiIIIIIii', time, address, 1 if allocation else 0, 0, size, size & 0xFFFFFFFF,
                       kind, thread, category_id, backtrace_id, freed, free)


def events_file(events, record_size=56):
    header = struct.pack('<IIIII', 0x12340A0A, 3, 40, 4096, record_size).ljust(4096, b'\0')
    return header + b''.join(events)


# Two blocks and a region still alive at the end, one block freed.
EVENTS_OF_CONTROL = [
    event(1000, 0x10000, 32, MALLOC, 0x10, 1, 1, free=2),
    event(2000, 0x20000, 64, MALLOC, 0x10, 1, 2),
    event(3000, 0x10000, -32, FREE, 0x10, 1, 3, freed=0),
    event(4000, 0x400000, 16384, VM_ALLOCATE, 0x11, 2, 1),
    event(5000, 0x30000, 128, MALLOC, 0x11, 1, 1),
]


def zipped(name, data):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as out:
        out.writestr(zipfile.ZipInfo(name, (2018, 5, 17, 7, 30, 0)), data)
    return buffer.getvalue()


# form.template: the instrument's type, and a run list without details (no
# symbols: frames stay addresses).
FORM = plistlib.dumps({
    '$archiver': 'NSKeyedArchiver', '$version': 100000,
    '$top': {'$1': plistlib.UID(1), 'com.apple.xray.run.data': plistlib.UID(2)},
    '$objects': [
        '$null', 'com.apple.xray.instrument-type.oa',
        {'$1': plistlib.UID(3), '$class': plistlib.UID(5)},
        {'NS.keys': [], 'NS.objects': [], '$class': plistlib.UID(4)},
        {'$classname': 'NSDictionary', '$classes': ['NSDictionary', 'NSObject']},
        {'$classname': 'XRRunListData', '$classes': ['XRRunListData', 'NSObject']},
    ],
}, fmt=plistlib.FMT_BINARY, sort_keys=False)


def recording(name, events=None, shared=None, members=None):
    events = EVENTS_OF_CONTROL if events is None else events
    files = {
        FORM_TEMPLATE: FORM,
        EVENTS: events_file(events),
        SHARED_DATA: zipped('00000000-0000-0000-0000-00000000A110', shared or shared_data(events)),
    }
    files.update(members or {})
    with zipfile.ZipFile(os.path.join(HERE, name), 'w', zipfile.ZIP_DEFLATED) as out:
        for path, data in files.items():
            if data is not None:
                out.writestr(zipfile.ZipInfo(path, (2018, 5, 17, 7, 30, 0)), data)


recording('allocations-control.zip')
# The events file ends inside its fifth record.
recording('allocations-truncated-events.zip', members={EVENTS: events_file(EVENTS_OF_CONTROL)[:-20]})
# The run's shared data was lost.
recording('allocations-no-shared-data.zip', members={SHARED_DATA: None})
# Events of a size this version does not know.
recording('allocations-record-size.zip', shared=shared_data(EVENTS_OF_CONTROL, record_size=64))
# The free names an allocation whose own free is another event.
unpaired = list(EVENTS_OF_CONTROL)
unpaired[2] = event(3000, 0x20000, -64, FREE, 0x10, 1, 3, freed=1)
recording('allocations-free-unpaired.zip', events=unpaired)
# A time past 2^63 ns.
late = list(EVENTS_OF_CONTROL)
late[4] = event(2**63 + 5000, 0x30000, 128, MALLOC, 0x11, 1, 1)
recording('allocations-time-overflow.zip', events=late)
# An event names a backtrace the shared data lacks.
lost = list(EVENTS_OF_CONTROL)
lost[1] = event(2000, 0x20000, 64, MALLOC, 0x10, 1, 9)
recording('allocations-unknown-backtrace.zip', events=lost)
