#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Failures of btf_write_elf_section() / btf_write_raw() (through the test tool
# btfwrite) leave the target byte-identical and no temporary file beside it:
#   - D2B_FAULT_WRITE=N for N = 1, 2, ... until it succeeds (ELF; raw over an
#     existing file; raw to a new file): exit 1, "PATH: ...: Input/output
#     error";
#   - RLIMIT_FSIZE (ulimit -f) below the new size: "File too large", exit 1,
#     not death by SIGXFSZ;
#   - a full file system (a 40 KiB tmpfs in a private mount namespace; skipped
#     part when unshare/mount do not work here): "No space left on device";
#   - SIGKILL in the middle (D2B_FAULT_WRITE_DELAY_MS), at several moments;
#   - an executable that is running is replaced (its process keeps the old
#     inode) and the new file runs;
#   - permissions: as root a 0444 file is replaced atomically and stays 0444,
#     owner and group kept; as an unprivileged user (setpriv, when we are
#     root) a 0444 file and a 0555 directory are clean errors ("not
#     writable", "cannot create a temporary file"); an ELF that is not one,
#     and a .BTF that would not fit a loaded segment, are clean errors.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd gcc cmp
BW=$D2B_TOOLS/btfwrite
[ -x "$BW" ] || d2b_fail "no $BW"
tmp=$(d2b_tmpdir)
cd "$tmp" || d2b_fail "cd $tmp"
umask 022
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' > p.c
gcc -g -O1 p.c -o prog || d2b_fail "gcc"
# Any bytes will do for the writer; a BTF-like blob of 3000 bytes.
head -c 3000 /dev/urandom > data.bin

# only_files DIR NAME...: DIR holds exactly these names (no temporary file)
only_files() {
	local d=$1 want got
	shift
	want=$(printf '%s\n' "$@" | sort)
	got=$(ls -A "$d" | sort)
	[ "$want" = "$got" ] || { echo "files in $d: $got" >&2; return 1; }
}

# --- injected faults, every step in turn -----------------------------------------
fault_loop() {	# MODE WHAT EXISTS
	local mode=$1 what=$2 exists=$3 n rc msg
	rm -rf fl && mkdir fl
	[ "$exists" = 1 ] && cp prog fl/f
	for n in $(seq 1 60); do
		msg=$(D2B_FAULT_WRITE=$n "$BW" "$mode" fl/f data.bin 2>&1)
		rc=$?
		[ $rc = 0 ] && break
		[ $rc = 1 ] || fail "$what: step $n: exit $rc"
		case $msg in
		"btfwrite: fl/f: "*": Input/output error") ;;
		*) fail "$what: step $n: message '$msg'" ;;
		esac
		if [ "$exists" = 1 ]; then
			cmp -s prog fl/f || fail "$what: step $n: file changed"
			only_files fl f || fail "$what: step $n: temporary file left"
		else
			only_files fl || fail "$what: step $n: file or temporary file left"
		fi
	done
	[ "$rc" = 0 ] || fail "$what: never succeeded"
	[ "$n" -ge 5 ] || fail "$what: succeeded at step $n, expected at least 5 steps"
	only_files fl f || fail "$what: after success"
	echo "$what: $((n - 1)) failing steps checked"
}
fault_loop elf elf 1
fault_loop raw raw-existing 1
fault_loop raw raw-new 0

# --- RLIMIT_FSIZE -------------------------------------------------------------------
rm -rf fs && mkdir fs && cp prog fs/f
msg=$( (ulimit -f 8; "$BW" elf fs/f data.bin) 2>&1)
rc=$?
[ $rc = 1 ] || fail "ulimit -f: exit $rc (153 = killed by SIGXFSZ)"
case $msg in *"File too large"*) ;; *) fail "ulimit -f: message '$msg'" ;; esac
cmp -s prog fs/f || fail "ulimit -f: file changed"
only_files fs f || fail "ulimit -f: temporary file left"

# --- a full file system -------------------------------------------------------------
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	unshare -m true 2>/dev/null; then
	mkdir -p mnt
	size=$(stat -c %s prog)
	out=$(unshare -m bash -c '
		mount -t tmpfs -o size=40k tmpfs mnt || exit 77
		cp prog mnt/f || exit 78
		# fill the rest so the copy cannot fit
		head -c $((40 * 1024 - '"$size"' - 8192)) /dev/zero > mnt/fill 2>/dev/null
		"$0" elf mnt/f data.bin; echo "rc=$?"
		cmp -s prog mnt/f && echo same
		ls -A mnt | sort | tr "\n" " "
	' "$BW" 2>&1)
	rc=$?
	if [ $rc = 77 ]; then
		echo "note: cannot mount a tmpfs here; full disk covered by ulimit -f"
	else
		case $out in *"No space left on device"*"rc=1"*) ;; *) fail "full disk: '$out'" ;; esac
		case $out in *same*) ;; *) fail "full disk: file changed: '$out'" ;; esac
		case $out in *"f fill "*) ;; *) fail "full disk: files left: '$out'" ;; esac
		case $out in *"f fill ."*) fail "full disk: temporary file left: '$out'" ;; esac
	fi
else
	echo "note: no private mount namespace; full disk covered by ulimit -f"
fi

# --- SIGKILL in the middle -------------------------------------------------------
rm -rf k && mkdir k
for t in 0.05 0.25 0.45 0.65 0.85 1.05 1.15; do
	cp prog k/f
	D2B_FAULT_WRITE_DELAY_MS=100 "$BW" elf k/f data.bin &
	pid=$!
	sleep $t
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		{ wait $pid; } 2>/dev/null
		rc=$?
		[ $rc = 137 ] || echo "note: killed at ${t}s: exit $rc"
		if [ $rc = 137 ]; then
			cmp -s prog k/f || fail "SIGKILL at ${t}s: file changed"
		fi
		only_files k f || fail "SIGKILL at ${t}s: temporary file left"
	else
		{ wait $pid; } 2>/dev/null
		echo "note: the writer finished before ${t}s"
	fi
done

# --- permissions ---------------------------------------------------------------------
if [ "$(id -u)" = 0 ]; then
	rm -rf p && mkdir p && cp prog p/f && chmod 0444 p/f && chown 1234:5678 p/f
	"$BW" elf p/f data.bin || fail "root, 0444: not written"
	[ "$(stat -c '%a %u %g' p/f)" = "444 1234 5678" ] ||
		fail "root, 0444: mode/owner now $(stat -c '%a %u %g' p/f)"
	cmp -s prog p/f && fail "root, 0444: file unchanged"
	only_files p f || fail "root, 0444: temporary file left"
	# setuid bits survive the owner change
	cp prog p/g && chown 1234:5678 p/g && chmod 4755 p/g
	"$BW" elf p/g data.bin || fail "root, 4755: not written"
	[ "$(stat -c '%a %u %g' p/g)" = "4755 1234 5678" ] ||
		fail "root, 4755: mode/owner now $(stat -c '%a %u %g' p/g)"
	if command -v setpriv >/dev/null &&
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		nob() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
		rm -rf u && mkdir u && chmod 0777 u && cp prog u/ro && chmod 0444 u/ro
		chown 65534 u/ro
		msg=$(nob "$BW" elf u/ro data.bin 2>&1)
		rc=$?
		[ $rc = 1 ] || fail "user, 0444: exit $rc"
		case $msg in "btfwrite: u/ro: not writable: Permission denied") ;;
		*) fail "user, 0444: '$msg'" ;; esac
		cmp -s prog u/ro || fail "user, 0444: file changed"
		rm -rf r && mkdir r && cp prog r/f && chmod 0666 r/f && chmod 0555 r
		msg=$(nob "$BW" elf r/f data.bin 2>&1)
		rc=$?
		[ $rc = 1 ] || fail "user, 0555 directory: exit $rc"
		case $msg in "btfwrite: r/f: cannot create a temporary file beside it: Permission denied") ;;
		*) fail "user, 0555 directory: '$msg'" ;; esac
		cmp -s prog r/f || fail "user, 0555 directory: file changed"
		only_files r f || fail "user, 0555 directory: files"
		msg=$(nob "$BW" raw r/new.btf data.bin 2>&1)
		[ $? = 1 ] && [ ! -e r/new.btf ] || fail "user, raw into 0555 directory: '$msg'"
		chmod 0755 r
	else
		echo "note: setpriv cannot drop privileges here; unprivileged cases skipped"
	fi
else
	rm -rf u && mkdir u && cp prog u/ro && chmod 0444 u/ro
	msg=$("$BW" elf u/ro data.bin 2>&1)
	[ $? = 1 ] || fail "0444 as a user: written"
	cmp -s prog u/ro || fail "0444 as a user: file changed"
fi

# --- a running executable (an in-place write would get ETXTBSY) ----------------
rm -rf run && mkdir run && cp "$(command -v sleep)" run/sl
run/sl 3 &
spid=$!
sleep 0.2
"$BW" elf run/sl data.bin || fail "running executable: not written"
kill -0 $spid 2>/dev/null || fail "running executable: the running copy died"
kill $spid 2>/dev/null
{ wait $spid; } 2>/dev/null
run/sl 0 || fail "running executable: the new file does not run"
only_files run sl || fail "running executable: temporary file left"

# --- not ELF; a loaded .BTF that would have to grow -------------------------------
rm -rf b && mkdir b && cp data.bin b/f
msg=$("$BW" elf b/f data.bin 2>&1)
[ $? = 1 ] && [ "$msg" = "btfwrite: b/f: not an ELF file" ] || fail "not ELF: '$msg'"
cmp -s data.bin b/f || fail "not ELF: changed"
if command -v objcopy >/dev/null; then
	head -c 64 /dev/urandom > b/btf64
	cp prog b/alloc
	objcopy --add-section .BTF=b/btf64 --set-section-flags .BTF=alloc,load,readonly,data b/alloc 2>/dev/null
	if readelf -SW b/alloc | grep -q '\.BTF .* A '; then
		cp b/alloc b/alloc.orig
		msg=$("$BW" elf b/alloc data.bin 2>&1)
		[ $? = 1 ] || fail "alloc .BTF larger: exit 0"
		case $msg in *"SHF_ALLOC"*"holds 64 bytes"*"3000"*) ;; *) fail "alloc larger: '$msg'" ;; esac
		cmp -s b/alloc b/alloc.orig || fail "alloc larger: changed"
		head -c 64 /dev/urandom > b/other64
		"$BW" elf b/alloc b/other64 || fail "alloc same size: failed"
		cmp -s -n $(( $(stat -c %s b/alloc.orig) )) b/alloc b/alloc.orig &&
			fail "alloc same size: nothing written"
		[ "$(stat -c %s b/alloc)" = "$(stat -c %s b/alloc.orig)" ] ||
			fail "alloc same size: file size changed"
	else
		echo "note: objcopy could not make an SHF_ALLOC .BTF"
	fi
fi

[ $fails = 0 ] || d2b_fail "$fails checks failed"
echo "ok"
