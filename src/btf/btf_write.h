/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf/btf_write: put finished BTF bytes (libbpf's btf__raw_data()) on disk,
 * either as a raw file (pahole --btf_encode_detached) or as the .BTF section
 * of an ELF file (pahole -J). Both replace their target atomically:
 *
 *     PATH's directory                         PATH
 *     ┌──────────────────────────┐  fsync   ┌────────────┐
 *     │ temporary file: O_TMPFILE│ ───────► │ rename(2)  │ ──► PATH is the new
 *     │ (unnamed) or .NAME.d2b-* │  link    │ over PATH  │     file, or, on any
 *     └──────────────────────────┘          └────────────┘     error, the old one
 *
 * The temporary file is unnamed (O_TMPFILE) while it is written, so a crash or
 * SIGKILL leaves nothing behind; it gets a name (".NAME.d2b-XXXXXX") only for
 * the instant between linkat(2) and rename(2). Where O_TMPFILE is not
 * supported it is a named file from the start (removed on every error path,
 * but a SIGKILL then leaves it). After the rename the directory is fsync'ed,
 * best effort: the file is already in place, so a failure there is ignored.
 *
 * Both functions return 0, or -1 with "PATH: reason" in err and PATH (and its
 * directory) exactly as before. They never print, exit or touch global state;
 * SIGXFSZ (RLIMIT_FSIZE) is blocked in the calling thread for the duration
 * and any instance it raised is consumed, so a size limit is an ordinary
 * "File too large" error. ENOSPC and short writes are errors too.
 *
 * Which PATH is replaced:
 *   - a symbolic link is followed (the link stays, its target is replaced);
 *   - a file with several hard links is replaced under this name only: the
 *     other names keep the old contents (pahole's in-place write would change
 *     them all);
 *   - the new file gets the old file's permission bits (setuid etc. included)
 *     and, when we run as root, its owner and group (otherwise it belongs to
 *     the caller, as any new file would). Other metadata (ACLs,
 *     extended attributes, SELinux labels, timestamps) is not copied;
 *   - we replace PATH only if the caller may write it (access(2) with the
 *     effective ids, W_OK): a 0444 file fails with "Permission denied" for an
 *     ordinary user, as pahole -J does, and root replaces it atomically and it
 *     stays 0444 (pahole, opening it O_RDWR, also writes it as root). A running
 *     executable (ETXTBSY for an in-place write) is fine: it keeps its inode.
 *
 * Fault injection (for tests; read from the environment on each call):
 *   D2B_FAULT_WRITE=N          the Nth write step fails as if with EIO. Steps,
 *                              in order: open the temporary file; each write
 *                              (the copy of the old ELF goes in chunks of at
 *                              most 16 MiB, each one step; so does every
 *                              pwrite of new bytes); fchown (root, existing
 *                              file only); fchmod (existing file only); fsync;
 *                              linkat (O_TMPFILE only); rename.
 *   D2B_FAULT_WRITE_DELAY_MS=M sleep M ms before every step (to SIGKILL a
 *                              writer in the middle).
 */
#ifndef D2B_BTF_BTF_WRITE_H
#define D2B_BTF_BTF_WRITE_H

#include <stddef.h>

#include "util/error.h"

/*
 * Write SIZE bytes of raw BTF to PATH: temporary file in the same directory,
 * fsync, rename over PATH. A new file gets mode 0644 less the umask (as
 * open(2) would create it); an existing one keeps its mode (and owner, as
 * root). An existing PATH that is not a regular file is an error. SIZE may be
 * 0 (an empty file); the bytes are not checked to be BTF.
 */
int btf_write_raw(const char *path, const void *data, size_t size,
		  struct d2b_error *err);

/*
 * Add or replace the .BTF section of the ELF file PATH (ELF32/ELF64, either
 * byte order), atomically as above. The new file is the old one's bytes with
 * changes only where listed here; the ELF header's program header fields,
 * the program headers and every other section's offset and bytes stay as
 * they are (so the section-to-segment mapping is unchanged and an executable
 * still runs):
 *
 *   no .BTF yet       ┌──────────┬─────┬──────┬──────────┬─────┬────────────┐
 *                     │ old file │ pad │ .BTF │.shstrtab*│ pad │ sect. hdrs │
 *                     └──────────┴─────┴──────┴──────────┴─────┴────────────┘
 *                     .BTF: SHT_PROGBITS, flags 0, offset and sh_addralign 4
 *                     (pahole 1.24 uses alignment 1; 4 keeps the u32 fields
 *                     of a mapped file aligned). *A copy of .shstrtab with
 *                     ".BTF" appended is added, and its header moved to it,
 *                     only when no name in it already ends in ".BTF". The
 *                     new section header table is the old one plus .BTF as
 *                     the last entry (indexes of all others unchanged);
 *                     e_shoff, e_shnum (or section 0's sh_size when the count
 *                     reaches SHN_LORESERVE: extended numbering) are updated.
 *
 *   .BTF, not SHF_ALLOC: the new bytes go where the old ones were when they
 *                     fit (the rest of the old space is zeroed), else at the
 *                     4-aligned end of the file (the old bytes stay behind,
 *                     unreferenced). Its header, rewritten in place, gets the
 *                     new offset and size, type SHT_PROGBITS and no
 *                     SHF_COMPRESSED. Hence adding and then replacing with
 *                     the same bytes gives the same file as adding once.
 *
 *   .BTF, SHF_ALLOC   (a linked vmlinux: inside a loaded segment, found by
 *                     the kernel through __start_BTF/__stop_BTF, not sh_size):
 *                     replaced in place only when the new bytes fit; larger
 *                     ones are an error (growing it would move code). Smaller
 *                     ones are padded to the old size by growing BTF's string
 *                     section with NUL bytes (header's str_len), so sh_size
 *                     and the kernel's __stop_BTF still match; when the bytes
 *                     are not BTF with the strings last, the rest of the old
 *                     space is zeroed and sh_size shrinks instead. The same
 *                     bytes give a byte-identical file.
 *
 * Errors: not an ELF file, a malformed or truncated header, section table or
 * .shstrtab (every offset and size is checked against the file size), no
 * section header table, more than one .BTF, a SHT_NOBITS .BTF, an ELF32 file
 * that would pass 4 GiB, SIZE 0.
 */
int btf_write_elf_section(const char *path, const void *data, size_t size,
			  struct d2b_error *err);

#endif
