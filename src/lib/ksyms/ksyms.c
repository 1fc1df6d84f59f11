/* Kernel symbol sets (ksyms.h): vmlinux and modules through libelf, kallsyms and System.map
 * as text, and the directory walks that find them without following links. */
#include "ksyms/ksyms.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/text.h"
#include "core/xalloc.h"

#define WALK_DEPTH 16

void ksyms_free(struct ksyms *k)
{
	strset_clear(&k->names);
	memset(k, 0, sizeof *k);
}

void ksyms_add(struct ksyms *k, const char *name, size_t len)
{
	char buf[KSYMS_NAME_MAX + 1];
	if (!k->lto && len > 6 && memmem(name, len, ".llvm.", 6))
		k->lto = true;
	const char *dot = len > 1 ? memchr(name + 1, '.', len - 1) : NULL;
	if (dot)
		len = (size_t)(dot - name);
	if (len == 0 || len > KSYMS_NAME_MAX || memchr(name, '\0', len))
		return; /* longer than the kernel's KSYM_NAME_LEN: no function of ours */
	memcpy(buf, name, len);
	buf[len] = '\0';
	strset_add(&k->names, buf);
}

bool ksyms_has(const struct ksyms *k, const char *name)
{
	return strset_contains(&k->names, name);
}

size_t ksyms_parse_map(struct ksyms *k, const char *buf, size_t len)
{
	size_t added = 0;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		/* ADDRESS ' ' TYPE ' ' NAME ['\t' '[' MODULE ']'] */
		const char *sp = memchr(p, ' ', (size_t)(le - p));
		bool hex = sp && sp > p;
		for (const char *h = p; hex && h < sp; h++)
			hex = (*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f') || (*h >= 'A' && *h <= 'F');
		if (hex && le - sp > 3 && sp[2] == ' ') {
			const char *name = sp + 3, *ne = name;
			while (ne < le && *ne != '\t' && *ne != ' ' && *ne != '\r')
				ne++;
			if (ne > name) {
				ksyms_add(k, name, (size_t)(ne - name));
				added++;
			}
		}
		p = le + (nl ? 1 : 0);
	}
	return added;
}

/* The budget of the run: bytes of symbol tables read and the time spent. 0 when there is room
 * for want more bytes, else -1 with err set (KCVE_E_IO). */
static int budget(struct ksyms *k, size_t want, const char *what, struct kcve_err *err)
{
	long long now = clock_now_ms();
	if (!k->started_ms)
		k->started_ms = now;
	if (now - k->started_ms > KSYMS_TIME_MAX_MS)
		return kcve_err_set(err, KCVE_E_IO, "%s: not read, the symbol files took more than %d s",
				    what, KSYMS_TIME_MAX_MS / 1000), -1;
	if (want > KSYMS_RUN_MAX - k->read_bytes)
		return kcve_err_set(err, KCVE_E_IO, "%s: not read, the symbol files hold more than %zu MiB "
				    "of symbol tables", what, KSYMS_RUN_MAX >> 20), -1;
	k->read_bytes += want;
	return 0;
}

/* The section header of section i, checked to lie in a file of size bytes (size 0: any). */
static bool section_in_file(Elf *e, size_t i, uint64_t size, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(e, i);
	if (!scn || !gelf_getshdr(scn, sh))
		return false;
	return sh->sh_type == SHT_NOBITS || size == 0 ||
	       (sh->sh_offset <= size && sh->sh_size <= size - sh->sh_offset);
}

int ksyms_read_elf_fd(struct ksyms *k, int fd, const char *what, struct kcve_err *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return kcve_err_set(err, KCVE_E_GENERIC, "libelf: %s", elf_errmsg(-1)), -1;
	struct stat st;
	uint64_t fsize = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		return kcve_err_set(err, KCVE_E_PARSE, "%s: not an ELF file; give a kernel build's vmlinux or module",
				    what), -1;
	}
	GElf_Ehdr eh;
	size_t shnum = 0;
	int rc = 0;
	bool head = gelf_getehdr(e, &eh) != NULL;
	uint64_t declared = head ? eh.e_shnum : 0; /* 0 with e_shoff: extended numbering */
	if (head && elf_getshdrnum(e, &shnum) == 0 && shnum > declared)
		declared = shnum;
	if (!head || (fsize && eh.e_shoff && (eh.e_shoff > fsize ||
					      declared * eh.e_shentsize > fsize - eh.e_shoff)) ||
	    elf_getshdrnum(e, &shnum) != 0)
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: truncated or damaged ELF file (its section "
				  "headers lie past its end)", what);
	else if (shnum > KSYMS_SECTIONS_MAX)
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: %zu sections, more than a kernel file has (%d)",
				  what, shnum, KSYMS_SECTIONS_MAX);
	/* one symbol table per file: the first (a kernel file has one; sections that describe the
	 * same bytes again are never read) */
	size_t tab = 0;
	GElf_Shdr sh, str;
	for (size_t i = 1; rc == 0 && !tab && i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		if (scn && gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			tab = i;
	}
	if (rc == 0 && !tab)
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: no symbol table (stripped); give the unstripped file",
				  what);
	if (rc == 0 && (!section_in_file(e, tab, fsize, &sh) || sh.sh_entsize < sizeof(Elf32_Sym) ||
			sh.sh_link == 0 || sh.sh_link >= shnum || !section_in_file(e, sh.sh_link, fsize, &str) ||
			str.sh_type != SHT_STRTAB))
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: truncated or damaged symbol table (it or its "
				  "names lie past the end of the file)", what);
	if (rc == 0 && (sh.sh_size > KSYMS_TABLE_MAX || str.sh_size > KSYMS_TABLE_MAX - sh.sh_size))
		rc = kcve_err_set(err, KCVE_E_IO, "%s: a symbol table of %llu MiB, more than the %zu MiB "
				  "read per file", what,
				  (unsigned long long)((sh.sh_size + str.sh_size) >> 20), KSYMS_TABLE_MAX >> 20);
	if (rc == 0)
		rc = budget(k, (size_t)(sh.sh_size + str.sh_size), what, err);
	Elf_Data *d = rc == 0 ? elf_getdata(elf_getscn(e, tab), NULL) : NULL;
	if (rc == 0 && !d)
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: unreadable symbol table (%s)", what, elf_errmsg(-1));
	size_t n = d ? d->d_size / sh.sh_entsize : 0; /* libelf bounds each read by the data */
	if (n > INT_MAX)
		n = INT_MAX;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		int t = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF || t == STT_SECTION || t == STT_FILE)
			continue;
		const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (name)
			ksyms_add(k, name, strnlen(name, KSYMS_NAME_MAX + 1));
	}
	elf_end(e);
	return rc ? -1 : 0;
}

/* --- files and directories ------------------------------------------------------------------ */

/* Read all of fd (at most cap bytes: more is an error, EFBIG). */
static int read_capped(int fd, size_t cap, char **out, size_t *len)
{
	size_t n = 0, alloc = 0;
	char *buf = NULL;
	for (;;) {
		XGROW(buf, n + 65536, alloc);
		ssize_t r = read_full(fd, buf + n, alloc - n);
		if (r < 0) {
			free(buf);
			return -1;
		}
		n += (size_t)r;
		if (n > cap) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
		if (n < alloc)
			break;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Open a user-given path: a regular file, the last component not a link. */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	return fd;
}

static int map_fd(struct ksyms *k, int fd, const char *what, struct kcve_err *err)
{
	char *buf;
	size_t len;
	if (read_capped(fd, KSYMS_MAP_MAX, &buf, &len) != 0)
		return kcve_err_set(err, KCVE_E_IO, "%s: %s", what, read_file_reason(errno)), -1;
	size_t n = ksyms_parse_map(k, buf, len);
	free(buf);
	if (n == 0)
		return kcve_err_set(err, KCVE_E_PARSE, "%s: no symbols (not a System.map or kallsyms, or unreadable)",
				    what), -1;
	return 0;
}

/* Why a file could not be opened, for messages outside the record tree. */
static const char *open_reason(int e)
{
	return e == ENOENT ? "missing" : e == EINVAL ? safefs_reason(e) : read_file_reason(e);
}

static int elf_at(struct ksyms *k, int dirfd, const char *name, const char *what,
		  struct kcve_err *err)
{
	struct stat st;
	int fd = safe_open_read(dirfd, name, &st);
	if (fd < 0)
		return kcve_err_set(err, errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO, "%s: %s", what,
				    open_reason(errno)), -1;
	int rc = -1;
	if ((uint64_t)st.st_size > KSYMS_ELF_MAX)
		kcve_err_set(err, KCVE_E_IO, "%s: larger than %zu MiB", what, KSYMS_ELF_MAX >> 20);
	else
		rc = ksyms_read_elf_fd(k, fd, what, err);
	close(fd);
	return rc;
}

struct walk {
	struct ksyms *k;
	const char *top; /* for messages */
	size_t files, unreadable; /* .ko read; compressed modules seen */
	struct kcve_err *err;
	char rel[4096]; /* the directory walked, below top ("" or "a/b/") */
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* A module file that cannot be used is left out (the modules are then not covered): counted,
 * and the first one named in the warning. */
static void skip_module(struct walk *w, const struct kcve_err *why)
{
	if (w->k->skipped++ == 0)
		text_snprintf(w->k->warning, sizeof w->k->warning, "%s", why->msg);
}

/* Every .ko below dirfd (links, devices and names with control characters skipped). */
static int walk_modules(struct walk *w, int dirfd, unsigned depth)
{
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return 0;
	}
	int rc = 0;
	size_t rl = strlen(w->rel);
	for (struct dirent *de; rc == 0 && (de = readdir(d));) {
		if (!safe_name(de->d_name))
			continue;
		struct stat st;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < WALK_DEPTH) {
			int sub = safe_open_dir(dirfd, de->d_name, false, 0);
			if (sub >= 0 && rl + strlen(de->d_name) + 2 < sizeof w->rel) {
				text_snprintf(w->rel + rl, sizeof w->rel - rl, "%s/", de->d_name);
				rc = walk_modules(w, sub, depth + 1);
				w->rel[rl] = '\0';
			} else if (sub >= 0)
				close(sub);
		} else if (S_ISREG(st.st_mode) && ends_with(de->d_name, ".ko")) {
			if (++w->files > KSYMS_FILES_MAX) {
				kcve_err_set(w->err, KCVE_E_IO, "%s: more than %d module files", w->top,
					     KSYMS_FILES_MAX);
				rc = -1;
				continue;
			}
			char what[4600];
			struct kcve_err e = {0};
			text_snprintf(what, sizeof what, "%s/%s%s", w->top, w->rel, de->d_name);
			if (elf_at(w->k, dirfd, de->d_name, what, &e) != 0) {
				skip_module(w, &e);
				w->files--;
				w->unreadable++;
			}
		} else if (S_ISREG(st.st_mode) && (ends_with(de->d_name, ".ko.xz") ||
			   ends_with(de->d_name, ".ko.zst") || ends_with(de->d_name, ".ko.gz"))) {
			w->unreadable++;
		}
	}
	closedir(d);
	return rc;
}

/* Lines of modules.order in dirfd (-1: no such file). */
static long order_count(int dirfd)
{
	struct strbuf sb = STRBUF_INIT;
	long n = -1;
	if (safe_read_at(dirfd, "modules.order", &sb, KSYMS_MAP_MAX) == 0) {
		n = 0;
		for (const char *p = sb_str(&sb); *p; p++)
			n += *p == '\n';
	}
	sb_release(&sb);
	return n;
}

/* The modules below dirfd (closed here): KSYMS_MODULES when every module of modules.order
 * was read. */
static int add_modules(struct ksyms *k, int dirfd, const char *what, struct kcve_err *err)
{
	long order = order_count(dirfd);
	struct walk w = {k, what, 0, 0, err, ""};
	if (walk_modules(&w, dirfd, 0) != 0)
		return -1;
	k->modules = w.files;
	if (order >= 0 && w.unreadable == 0 && w.files >= (size_t)order)
		k->cover |= KSYMS_MODULES;
	size_t used = strlen(k->desc);
	text_snprintf(k->desc + used, sizeof k->desc - used, " + %zu modules in %s%s", w.files, what,
		 k->cover & KSYMS_MODULES ? ""
		 : order < 0 ? " (no modules.order: modules not covered)"
			     : " (not every module read: modules not covered)");
	if (k->skipped > 1) {
		size_t wl = strlen(k->warning);
		text_snprintf(k->warning + wl, sizeof k->warning - wl, "; and %zu more module files "
			      "left out", k->skipped - 1);
	}
	if (k->skipped) {
		size_t wl = strlen(k->warning);
		text_snprintf(k->warning + wl, sizeof k->warning - wl, " (modules not covered)");
	}
	return 0;
}

/* The kernel configuration rel below dirfd, if readable: does it enable clang's LTO
 * (CONFIG_LTO_CLANG, _FULL or _THIN =y at the start of a line)? */
static void config_lto(struct ksyms *k, int dirfd, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	if (safe_read_at(dirfd, rel, &sb, KSYMS_MAP_MAX) == 0)
		for (const char *p = sb_str(&sb); p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			if (strncmp(p, "CONFIG_LTO_CLANG", 16) != 0)
				continue;
			size_t n = strcspn(p + 16, "=\n");
			if ((n == 0 || (n == 5 && !strncmp(p + 16, "_FULL", 5)) ||
			     (n == 5 && !strncmp(p + 16, "_THIN", 5))) && !strncmp(p + 16 + n, "=y", 2))
				k->lto = true;
		}
	sb_release(&sb);
}

/* --- the three sources ---------------------------------------------------------------------- */

/* Every open function ends here: 0 or -1 (kcve_err_set returns the exit code). */
static int finish(struct ksyms *k, int rc)
{
	(void)k;
	return rc ? -1 : 0;
}

int ksyms_open_build(struct ksyms *k, const char *builddir, struct kcve_err *err)
{
	memset(k, 0, sizeof *k);
	int dfd = open(builddir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return finish(k, kcve_err_set(err, KCVE_E_NOTFOUND, "--build %s: %s; give a kernel build directory",
					      builddir, strerror(errno))), -1;
	char what[600];
	text_snprintf(what, sizeof what, "--build %s: vmlinux", builddir);
	if (elf_at(k, dfd, "vmlinux", what, err) != 0) {
		close(dfd);
		return finish(k, -1);
	}
	k->cover = KSYMS_VMLINUX;
	text_snprintf(k->desc, sizeof k->desc, "symbols of %s/vmlinux", builddir);
	config_lto(k, dfd, ".config");
	return finish(k, add_modules(k, dfd, builddir, err));
}

/* lib/modules/RELEASE below rootfd, or usr/lib/modules/RELEASE (merged /usr: lib is a link). */
static int modules_dir(int rootfd, const char *release)
{
	char rel[300];
	if (!safe_name(release))
		return -1;
	text_snprintf(rel, sizeof rel, "lib/modules/%s", release);
	int fd = safe_open_dir(rootfd, rel, false, 0);
	if (fd < 0) {
		text_snprintf(rel, sizeof rel, "usr/lib/modules/%s", release);
		fd = safe_open_dir(rootfd, rel, false, 0);
	}
	return fd;
}

int ksyms_open_running(struct ksyms *k, const char *root, const char *release,
		       struct kcve_err *err)
{
	memset(k, 0, sizeof *k);
	const char *r = root ? root : "/";
	int rootfd = open(r, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return finish(k, kcve_err_set(err, KCVE_E_NOTFOUND, "--root %s: %s", r, strerror(errno))), -1;
	struct stat st;
	int fd = safe_open_read(rootfd, "proc/kallsyms", &st);
	int oerr = errno;
	char what[600];
	size_t rl = strlen(r); /* messages: "ROOT/proc/kallsyms" with one '/' */
	const char *sep = rl && r[rl - 1] == '/' ? "" : "/";
	text_snprintf(what, sizeof what, "%s%sproc/kallsyms", r, sep);
	int rc = fd < 0 ? kcve_err_set(err, KCVE_E_NOTFOUND, "%s: %s; the running kernel's symbols are needed",
				       what, open_reason(oerr))
			: map_fd(k, fd, what, err);
	if (fd >= 0)
		close(fd);
	if (rc == 0) {
		k->cover = KSYMS_VMLINUX;
		text_snprintf(k->desc, sizeof k->desc, "%s", what);
		char cfg[300];
		text_snprintf(cfg, sizeof cfg, "boot/config-%s", release);
		if (safe_name(release))
			config_lto(k, rootfd, cfg);
		int mfd = modules_dir(rootfd, release);
		char mwhat[600];
		text_snprintf(mwhat, sizeof mwhat, "%s%slib/modules/%s", r, sep,
			 release);
		if (mfd >= 0)
			rc = add_modules(k, mfd, mwhat, err);
	}
	close(rootfd);
	return finish(k, rc);
}

int ksyms_open_system_map(struct ksyms *k, const char *path, struct kcve_err *err)
{
	memset(k, 0, sizeof *k);
	int fd = open_regular(path);
	char what[600];
	text_snprintf(what, sizeof what, "--system-map %s", path);
	if (fd < 0)
		return finish(k, kcve_err_set(err, errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
					      "%s: %s", what, open_reason(errno))), -1;
	int rc = map_fd(k, fd, what, err);
	close(fd);
	if (rc != 0)
		return finish(k, -1);
	if (!ksyms_has(k, "_text") && !ksyms_has(k, "_stext"))
		return finish(k, kcve_err_set(err, KCVE_E_PARSE,
			"%s: not a kernel's System.map (no _text); Debian's linux-image packages hold a placeholder, the real map is in linux-image-RELEASE-dbg",
			what));
	k->cover = KSYMS_VMLINUX;
	text_snprintf(k->desc, sizeof k->desc, "System.map %s", path);
	/* DIR/boot/System.map-RELEASE: the modules are DIR/lib/modules/RELEASE */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strncmp(base, "System.map-", 11) != 0)
		return finish(k, 0);
	char top[4096];
	int n = text_snprintf(top, sizeof top, "%.*s/..", (int)(base - path) - 1, path);
	if (base == path)
		n = text_snprintf(top, sizeof top, "..");
	int rootfd = n > 0 && (size_t)n < sizeof top ? open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (rootfd < 0)
		return finish(k, 0);
	char cfg[300];
	if (safe_name(base + 11) && strlen(base + 11) < 200) { /* boot/config-RELEASE beside it */
		text_snprintf(cfg, sizeof cfg, "boot/config-%s", base + 11);
		config_lto(k, rootfd, cfg);
	}
	int mfd = modules_dir(rootfd, base + 11);
	close(rootfd);
	if (mfd < 0)
		return finish(k, 0);
	char mwhat[4200];
	text_snprintf(mwhat, sizeof mwhat, "%s/lib/modules/%s", top, base + 11);
	return finish(k, add_modules(k, mfd, mwhat, err));
}
