#!/usr/bin/env bash
# Sourced by tests that inspect a history index: sql QUERY prints the rows of QUERY on the index
# $IDX ("|" between columns, empty for NULL); expect GOT WANT WHAT fails the test (fail, from
# scratch-git-repo.sh) unless GOT equals WANT.
sql() { /usr/bin/python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print("\n".join("|".join("" if v is None else str(v) for v in r) for r in c.execute(sys.argv[2])))' "$IDX" "$1"; }
expect() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }
