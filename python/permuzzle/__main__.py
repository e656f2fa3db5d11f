"""``python -m permuzzle <family> <verb> ...``: the permuzzle command line (see permuzzle.main)."""

import signal
import sys

import permuzzle

if __name__ == "__main__":
    # Behave as the program does: Ctrl-C ends the command at once (Python's own handler would
    # wait for the C++ command to return), and a closed pipe (`... | head`) ends it quietly.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(permuzzle.main(sys.argv[1:]))
