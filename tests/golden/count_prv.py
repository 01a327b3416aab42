#!/usr/bin/env python3
"""Independent count of the records of a .prv file, for checking `parallax info --json`.

Written from trace-format.md with plain string splitting, sharing no code with the C++ reader.
Prints a JSON object with the keys info --json uses plus the anomaly counts.
"""
import gzip
import json
import sys


def count(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', newline='') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    header = lines[0]
    ncomm = 0
    tail = header[header.rindex(')') + 1:]
    if tail.startswith(','):
        ncomm = int(tail[1:])
    out = dict(states=0, events=0, event_pairs=0, comms=0, global_comms=0,
               backward_physical=0, backward_logical=0,
               blank_line=0, comment_line=0, state_end_before_begin=0, out_of_order=0)
    last = {}
    for line in lines[1 + ncomm:]:
        line = line.rstrip('\r \t')
        if not line:
            out['blank_line'] += 1
            continue
        kind = line[0]
        if kind == '#':
            out['comment_line'] += 1
            continue
        f = line.split(':')
        if kind == '1':
            out['states'] += 1
            begin, end = int(f[5]), int(f[6])
            if end != -1 and end < begin:
                out['state_end_before_begin'] += 1
            key = ('s', f[2], f[3], f[4])
            if begin < last.get(key, 0):
                out['out_of_order'] += 1
            last[key] = begin
        elif kind == '2':
            out['events'] += 1
            out['event_pairs'] += (len(f) - 6) // 2
            key = ('e', f[2], f[3], f[4])
            t = int(f[5])
            if t < last.get(key, 0):
                out['out_of_order'] += 1
            last[key] = t
        elif kind == '3':
            out['comms'] += 1
            # lsend psend at 5, 6; lrecv precv at 11, 12: received before sent
            out['backward_physical'] += int(f[12]) < int(f[6])
            out['backward_logical'] += int(f[11]) < int(f[5])
        elif kind == '4':
            out['global_comms'] += 1
    out['records'] = out['states'] + out['event_pairs'] + out['comms']
    return out


if __name__ == '__main__':
    print(json.dumps(count(sys.argv[1])))
