"""Reads a merged .prv for the MPI golden tests: MPI call counts per task, communications,
collective events and communicator lines. Used as `from prv_summary import read_prv`."""
import collections


def read_prv(path):
    """Returns a dict: calls[(task, value)] -> entries of the MPI call with that Extrae value, comms (list of
    dicts), events[(task, type)] -> list of values, communicators (list of (id, [tasks])), lines (task, {type: value}) per event line."""
    calls = collections.Counter()
    lines = []  # (task, {type: value}) of every event line
    events = collections.defaultdict(list)
    comms, communicators = [], []
    with open(path) as f:
        header = f.readline()
        ncomm = int(header.rsplit(')', 1)[1].lstrip(',') or 0)
        for _ in range(ncomm):
            c = f.readline().rstrip('\n').split(':')
            communicators.append((int(c[2]), [int(x) for x in c[4:]]))
        for line in f:
            fld = line.rstrip('\n').split(':')
            if fld[0] == '2':
                task = int(fld[3])
                lines.append((task, {int(t): int(v) for t, v in zip(fld[6::2], fld[7::2])}))
                for t, v in zip(fld[6::2], fld[7::2]):
                    t, v = int(t), int(v)
                    if 50000001 <= t <= 50000005 and v != 0:
                        calls[(task, v)] += 1
                    events[(task, t)].append(v)
            elif fld[0] == '3':
                v = list(map(int, fld[1:]))
                comms.append(dict(send_task=v[2], recv_task=v[8], lsend=v[4], psend=v[5],
                                  lrecv=v[10], precv=v[11], size=v[12], tag=v[13]))
    return dict(calls=calls, events=events, comms=comms, communicators=communicators,
                lines=lines)
