#!/usr/bin/env python3
"""on_tty.py [--stderr-file F] ARGV... - runs ARGV on a pseudo-terminal (its stdin, stdout
and stderr, unless --stderr-file sends stderr to file F) and prints everything it wrote
there as one Python bytes literal (repr: \\r and escape sequences kept visible), then a
line "exit N" with its exit status. For tests of what a program shows on a terminal;
read_to_eof is shared with the tests that drive a pty themselves."""
import os
import pty
import sys


def read_to_eof(fd):
    """Everything left to read from the pty master fd, until the child side closes."""
    out = b''
    while True:
        try:
            d = os.read(fd, 65536)
        except OSError:  # EIO: the child closed its side
            break
        if not d:
            break
        out += d
    return out


def main():
    argv = sys.argv[1:]
    errf = None
    if argv and argv[0] == '--stderr-file':
        errf, argv = argv[1], argv[2:]
    if not argv:
        sys.exit('usage: on_tty.py [--stderr-file F] ARGV...')
    pid, fd = pty.fork()
    if pid == 0:
        if errf:
            e = os.open(errf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(e, 2)
        os.execv(argv[0], argv)
    out = read_to_eof(fd)
    _, st = os.waitpid(pid, 0)
    print(repr(out))
    print('exit %d' % os.waitstatus_to_exitcode(st))


if __name__ == '__main__':
    main()
