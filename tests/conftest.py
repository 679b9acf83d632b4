"""Every test process takes Ctrl-C as Python does by default, even when its shell started it in
the background (a script's `cmd &` ignores SIGINT, and an ignored SIGINT is inherited): the
interrupt tests send SIGINT to this process and to courtsim subprocesses, which get the default
disposition back on exec once this process has a handler."""
import signal

signal.signal(signal.SIGINT, signal.default_int_handler)
