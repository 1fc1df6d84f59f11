/* modprobe.d reader (see modprobe.h). */
#include "check/inputs/modprobe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/text.h"

/* Everything read from one image at most (4,096 files of 1 MiB would be 4 GiB). */
#define CK_MODPROBE_TOTAL ((size_t)16 << 20)

struct mp_rule {
	char name[56];  /* normalised module name */
	bool install;   /* install rule (else blacklist) */
	bool blocks;    /* install rule whose command loads nothing */
	bool kernel;    /* module_blacklist= on the kernel command line: the kernel refuses it */
	size_t seq;     /* reading order */
	char *why;      /* "/etc/modprobe.d/x.conf:3: install m /bin/false" */
};

struct ck_modprobe {
	struct mp_rule *v;
	size_t n, alloc, nfiles;
	bool sorted;
	char *disabled_why;  /* kernel.modules_disabled = 1: no module loads at all */
	char (*builtin)[56]; /* normalised names from modules.builtin, sorted */
	size_t nbuiltin, abuiltin;
	bool has_builtin;
};

bool ck_module_name_norm(const char *in, size_t n, char *out, size_t outsz)
{
	if (n == 0 || n >= outsz)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = in[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
		out[i] = c == '-' ? '_' : c;
	}
	out[n] = '\0';
	return true;
}

bool ck_modprobe_cmd_blocks(const char *cmd)
{
	static const char *const progs[] = {"true", "false", "/bin/true", "/bin/false",
					    "/usr/bin/true", "/usr/bin/false"};
	if (strpbrk(cmd, ";&|`$()<>\\\n\r"))
		return false;
	cmd += strspn(cmd, " \t");
	size_t n = strcspn(cmd, " \t");
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
		if (strlen(progs[i]) == n && !memcmp(cmd, progs[i], n))
			return true;
	return false;
}

struct ck_modprobe *ck_modprobe_new(void)
{
	return xcalloc(1, sizeof(struct ck_modprobe));
}

static void add_rule(struct ck_modprobe *mp, const char *name, bool install, const char *cmd,
		     const char *where, size_t line)
{
	XGROW(mp->v, mp->n + 1, mp->alloc);
	struct mp_rule *r = &mp->v[mp->n];
	memset(r, 0, sizeof *r);
	text_snprintf(r->name, sizeof r->name, "%s", name);
	r->install = install;
	r->blocks = install && ck_modprobe_cmd_blocks(cmd);
	r->seq = mp->n++;
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s:%zu: %s %s%s", where, line, install ? "install" : "blacklist", name,
		install ? " " : "");
	if (install) /* the command as one printable line, cut at 160 bytes */
		sb_add_printable(&sb, cmd);
	if (sb.len > 240) {
		sb.len = 240;
		sb.buf[sb.len] = '\0';
	}
	r->why = sb_detach(&sb);
	mp->sorted = false;
}

/* One logical line (continuations joined): "blacklist M" or "install M CMD...". */
static void parse_line(struct ck_modprobe *mp, char *s, const char *where, size_t line)
{
	s += strspn(s, " \t");
	size_t kw = strcspn(s, " \t");
	bool install = kw == 7 && !memcmp(s, "install", 7);
	if (!install && !(kw == 9 && !memcmp(s, "blacklist", 9)))
		return; /* comments, alias, options, softdep, remove, unknown words */
	s += kw;
	s += strspn(s, " \t");
	size_t nl = strcspn(s, " \t");
	char name[56];
	if (!ck_module_name_norm(s, nl, name, sizeof name))
		return;
	s += nl;
	s += strspn(s, " \t");
	if (install && !*s)
		return; /* modprobe ignores an install rule without a command */
	add_rule(mp, name, install, s, where, line);
}

void ck_modprobe_add_text(struct ck_modprobe *mp, const char *where, const char *text,
			  size_t len)
{
	mp->nfiles++;
	struct strbuf cur = STRBUF_INIT;
	size_t lineno = 0, first = 0;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		if (!cur.len)
			first = lineno;
		bool cont = n && p[n - 1] == '\\';
		/* a NUL ends the text of the line, as it does for kmod's reader */
		const char *z = memchr(p, '\0', n);
		sb_add(&cur, p, z ? (size_t)(z - p) : cont ? n - 1 : n);
		if (!cont || z) {
			parse_line(mp, cur.buf, where, first);
			sb_reset(&cur);
		}
		p = nl ? nl + 1 : end;
	}
	if (cur.len)
		parse_line(mp, cur.buf, where, first);
	sb_release(&cur);
}

static int rule_cmp(const void *x, const void *y)
{
	const struct mp_rule *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

enum ck_mp_rule ck_modprobe_rule(const struct ck_modprobe *mp, const char *module,
				 const char **why)
{
	char name[56];
	if (why)
		*why = NULL;
	if (!mp || !ck_module_name_norm(module, strlen(module), name, sizeof name))
		return CK_MP_NONE;
	if (!mp->sorted) { /* sorting is not a visible change: the rules stay the same */
		struct ck_modprobe *m = (struct ck_modprobe *)mp;
		if (m->n)
			qsort(m->v, m->n, sizeof *m->v, rule_cmp);
		m->sorted = true;
	}
	size_t lo = 0, hi = mp->n;
	while (lo < hi) { /* first rule with this name */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(mp->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct mp_rule *bl = NULL, *inst = NULL, *kern = NULL;
	for (size_t i = lo; i < mp->n && !strcmp(mp->v[i].name, name); i++) {
		if (mp->v[i].kernel) {
			if (!kern)
				kern = &mp->v[i];
		} else if (mp->v[i].install && !inst)
			inst = &mp->v[i]; /* the first install rule is the one modprobe runs */
		else if (!mp->v[i].install && !bl)
			bl = &mp->v[i];
	}
	if (mp->disabled_why || kern || (inst && inst->blocks)) {
		if (why)
			*why = mp->disabled_why ? mp->disabled_why : kern ? kern->why : inst->why;
		return CK_MP_BLOCKED;
	}
	if (bl && why)
		*why = bl->why;
	return bl ? CK_MP_BLACKLIST : CK_MP_NONE;
}

void ck_modprobe_add_cmdline(struct ck_modprobe *mp, const char *text, size_t len)
{
	static const struct {
		const char *key;
		bool kernel;
	} keys[] = {{"module_blacklist=", true}, {"modprobe.blacklist=", false}};
	const char *p = text, *end = text + len;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\0')
			p++;
		size_t wl = (size_t)(p - w);
		for (size_t k = 0; k < 2; k++) {
			size_t kl = strlen(keys[k].key);
			if (wl <= kl || memcmp(w, keys[k].key, kl))
				continue;
			for (const char *m = w + kl; m < p;) {
				const char *c = memchr(m, ',', (size_t)(p - m));
				size_t ml = c ? (size_t)(c - m) : (size_t)(p - m);
				char name[56];
				if (ck_module_name_norm(m, ml, name, sizeof name)) {
					add_rule(mp, name, false, "", "/proc/cmdline", 1);
					struct mp_rule *r = &mp->v[mp->n - 1];
					r->kernel = keys[k].kernel;
					free(r->why);
					struct strbuf sb = STRBUF_INIT;
					sb_adds(&sb, "/proc/cmdline: ");
					sb_add(&sb, keys[k].key, kl);
					sb_adds(&sb, name);
					r->why = sb_detach(&sb);
				}
				m += ml + 1;
			}
		}
		if (p < end && *p == '\0')
			break;
	}
}

void ck_modprobe_set_disabled(struct ck_modprobe *mp, const char *why)
{
	free(mp->disabled_why);
	mp->disabled_why = xstrdup(why);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

void ck_modprobe_add_builtin(struct ck_modprobe *mp, const char *text, size_t len)
{
	mp->has_builtin = true;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* "kernel/net/core/failover.ko": the file name without ".ko" is the module */
		const char *base = p;
		for (size_t i = 0; i < n; i++)
			if (p[i] == '/')
				base = p + i + 1;
		size_t bl = (size_t)(p + n - base);
		char name[56];
		if (bl > 3 && !memcmp(base + bl - 3, ".ko", 3) &&
		    ck_module_name_norm(base, bl - 3, name, sizeof name)) {
			XGROW(mp->builtin, mp->nbuiltin + 1, mp->abuiltin);
			memcpy(mp->builtin[mp->nbuiltin++], name, sizeof name);
		}
		p = nl ? nl + 1 : end;
	}
	if (mp->nbuiltin)
		qsort(mp->builtin, mp->nbuiltin, sizeof *mp->builtin, name_cmp);
}

bool ck_modprobe_knows_builtin(const struct ck_modprobe *mp)
{
	return mp && mp->has_builtin;
}

bool ck_modprobe_is_builtin(const struct ck_modprobe *mp, const char *module)
{
	char name[56];
	if (!mp || !mp->nbuiltin || !ck_module_name_norm(module, strlen(module), name, sizeof name))
		return false;
	return bsearch(name, mp->builtin, mp->nbuiltin, sizeof *mp->builtin, name_cmp) != NULL;
}

size_t ck_modprobe_nfiles(const struct ck_modprobe *mp)
{
	return mp ? mp->nfiles : 0;
}

void ck_modprobe_free(struct ck_modprobe *mp)
{
	if (!mp)
		return;
	for (size_t i = 0; i < mp->n; i++)
		free(mp->v[i].why);
	free(mp->v);
	free(mp->builtin);
	free(mp->disabled_why);
	free(mp);
}

/* The configuration directories, most important first (modprobe.d(5), kmod). */
static const char *const conf_dirs[] = {"etc/modprobe.d", "run/modprobe.d",
					"usr/local/lib/modprobe.d", "usr/lib/modprobe.d",
					"lib/modprobe.d"};
#define NDIRS (sizeof conf_dirs / sizeof *conf_dirs)

struct conf_file {
	char *name;
	size_t dir;  /* index into conf_dirs */
	bool masked; /* a link to /dev/null: hides the name in later directories, read nothing */
	bool link;   /* another link: not followed (it could leave the root) */
};

static int conf_cmp(const void *x, const void *y)
{
	const struct conf_file *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : a->dir < b->dir ? -1 : a->dir > b->dir;
}

/* List the *.conf entries of one directory (fd) into files. */
static void list_dir(int fd, size_t d, struct conf_file **files, size_t *n, size_t *alloc)
{
	int dup_fd = dup(fd);
	DIR *dir = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!dir) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	for (struct dirent *de; (de = readdir(dir)) && *n < 4 * CK_MODPROBE_FILES;) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".conf") || !safe_name(de->d_name))
			continue;
		struct stat st;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		struct conf_file cf = {.dir = d};
		if (S_ISLNK(st.st_mode)) {
			char target[16];
			ssize_t tl = readlinkat(fd, de->d_name, target, sizeof target - 1);
			cf.masked = tl == 9 && !memcmp(target, "/dev/null", 9);
			cf.link = !cf.masked;
		} else if (!S_ISREG(st.st_mode)) {
			continue;
		}
		cf.name = xstrdup(de->d_name);
		XGROW(*files, *n + 1, *alloc);
		(*files)[(*n)++] = cf;
	}
	closedir(dir);
}

/* ROOT/lib/modules/RELEASE/modules.builtin (or usr/lib/...), inside the root. */
static void load_builtin(struct ck_modprobe *mp, int rootfd, const char *uname_r,
			 const struct kcve_diag *diag)
{
	if (!uname_r || !safe_name(uname_r))
		return;
	struct strbuf sb = STRBUF_INIT;
	const char *const dirs[] = {"lib/modules", "usr/lib/modules"};
	for (size_t d = 0; d < 2 && !mp->has_builtin; d++) {
		char rel[512];
		text_snprintf(rel, sizeof rel, "%s/%s/modules.builtin", dirs[d], uname_r);
		sb_reset(&sb);
		if (safe_read_at(rootfd, rel, &sb, 4 * CK_MODPROBE_FILE_MAX) == 0)
			ck_modprobe_add_builtin(mp, sb.buf, sb.len);
	}
	sb_release(&sb);
	if (!mp->has_builtin && mp->n)
		diag_warn(diag, "/lib/modules/%s/modules.builtin is missing: built-in code cannot be "
			  "told from modules, so no modprobe rule counts as a mitigation", uname_r);
}

int ck_modprobe_load(struct ck_modprobe **out, const char *root, const char *uname_r,
		     const struct kcve_diag *diag, struct kcve_err *err)
{
	const char *r = root && *root ? root : "/";
	int rootfd = open(r, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return kcve_err_set(err, KCVE_E_NOTFOUND, "cannot open the root %s for its modprobe "
				    "configuration: %s", r, strerror(errno));
	int dfd[NDIRS];
	struct conf_file *files = NULL;
	size_t n = 0, alloc = 0;
	for (size_t d = 0; d < NDIRS; d++) {
		dfd[d] = safe_open_dir(rootfd, conf_dirs[d], false, 0);
		if (dfd[d] >= 0)
			list_dir(dfd[d], d, &files, &n, &alloc);
	}
	if (n)
		qsort(files, n, sizeof *files, conf_cmp);
	struct ck_modprobe *mp = ck_modprobe_new();
	struct strbuf sb = STRBUF_INIT;
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		struct conf_file *f = &files[i];
		if (i && !strcmp(files[i - 1].name, f->name))
			continue; /* hidden by the same name in a more important directory */
		if (f->masked)
			continue;
		if (f->link) {
			diag_warn(diag, "/%s/%s is a symbolic link: not followed (it could leave the "
				  "image), its modprobe rules are not read", conf_dirs[f->dir], f->name);
			continue;
		}
		if (mp->nfiles >= CK_MODPROBE_FILES) {
			diag_warn(diag, "more than %d modprobe configuration files: the rest are not read",
				  CK_MODPROBE_FILES);
			break;
		}
		sb_reset(&sb);
		char where[512];
		text_snprintf(where, sizeof where, "/%s/%s", conf_dirs[f->dir], f->name);
		if (safe_read_at(dfd[f->dir], f->name, &sb, CK_MODPROBE_FILE_MAX) != 0) {
			int e = errno;
			diag_warn(diag, "%s: not read (%s)", where,
				  e == EFBIG ? "larger than 1 MiB" : e == ELOOP ? "a symbolic link"
				  : e == ENODEV ? "not a regular file" : strerror(e));
			continue;
		}
		if ((total += sb.len) > CK_MODPROBE_TOTAL) {
			diag_warn(diag, "the modprobe configuration exceeds %zu MiB: %s and later files "
				  "are not read", CK_MODPROBE_TOTAL >> 20, where);
			break;
		}
		ck_modprobe_add_text(mp, where, sb.buf, sb.len);
	}
	for (size_t i = 0; i < n; i++)
		free(files[i].name);
	free(files);
	for (size_t d = 0; d < NDIRS; d++)
		if (dfd[d] >= 0)
			close(dfd[d]);
	load_builtin(mp, rootfd, uname_r, diag);
	sb_reset(&sb);
	if (safe_read_at(rootfd, "proc/cmdline", &sb, 1 << 16) == 0)
		ck_modprobe_add_cmdline(mp, sb.buf, sb.len);
	sb_reset(&sb);
	if (safe_read_at(rootfd, "proc/sys/kernel/modules_disabled", &sb, 64) == 0 &&
	    sb.len && sb.buf[0] == '1')
		ck_modprobe_set_disabled(mp, "/proc/sys/kernel/modules_disabled = 1 (no module can be "
					 "loaded until reboot)");
	sb_release(&sb);
	close(rootfd);
	*out = mp;
	return 0;
}
