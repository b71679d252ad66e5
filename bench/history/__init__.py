"""`python -m bench.history`: replay real drift fixes at their parent commits (see bench/README.md)."""
