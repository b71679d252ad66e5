"""Data: the snapshot of each host's registrations archsync ships (`project/hosts.py` reads them)."""
