"""The benchmark of `make bench` (bench/run.py): generated sites, gunicorn, loopback load."""
