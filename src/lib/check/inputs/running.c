/* The running system and a build directory's release (see check/inputs/running.h). */
#include "check/inputs/running.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check/inputs/release.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "core/xalloc.h"

/* Files of the running system are small: /proc/modules of a big system is ~20 KiB. */
#define PROBE_MAX ((size_t)1 << 20)

/* The system probed: the host ("/", rootfd -1) or an image (--root, opened once). Every file
 * is read with the bounded reader (regular files only: a FIFO or a link to /dev/zero is
 * refused), and inside an image every path is resolved inside it (openat2 RESOLVE_IN_ROOT):
 * an absolute link in the image never reaches the host's files. */
struct probe_sys {
	const char *root; /* "" for the host, for messages */
	int rootfd;
};

static int probe_read(const struct probe_sys *ps, const char *rel, struct strbuf *sb)
{
	sb_reset(sb);
	if (ps->rootfd >= 0)
		return read_file_in_root(ps->rootfd, rel, sb, PROBE_MAX);
	char path[4096];
	text_snprintf(path, sizeof path, "/%s", rel);
	return read_file_capped(path, sb, PROBE_MAX);
}

/* Read a one-line file (trimmed) into sb; false if missing or unreadable. */
static bool read_line_file(const struct probe_sys *ps, const char *rel, struct strbuf *sb)
{
	if (probe_read(ps, rel, sb) < 0)
		return false;
	sb_rtrim(sb);
	return true;
}

/* uname -r: from the root's proc or the system call. */
static int probe_uname(struct ck_running *rn, const struct probe_sys *ps, struct strbuf *sb,
		       struct kcve_err *err)
{
	if (ps->rootfd < 0) {
		struct utsname u;
		if (uname(&u) < 0)
			return kcve_err_set(err, KCVE_E_IO, "uname() failed; pass --version instead of "
					    "--running");
		text_snprintf(rn->uname_r, sizeof rn->uname_r, "%s", u.release);
		return 0;
	}
	if (!read_line_file(ps, "proc/sys/kernel/osrelease", sb) || !sb->len ||
	    strchr(sb->buf, '\n')) {
		int e = errno;
		return kcve_err_set(err, KCVE_E_NOTFOUND,
				    "--root %s: proc/sys/kernel/osrelease is missing, not one line or "
				    "not a regular file (%s); it must hold the image's kernel release "
				    "(uname -r), or pass --version instead of --running",
				    ps->root, sb->len ? "more than one line" : read_file_reason(e));
	}
	text_snprintf(rn->uname_r, sizeof rn->uname_r, "%s", sb->buf);
	return 0;
}

/* Whether rel is a regular file of the system; inside an image, it is kept open and named
 * /proc/self/fd/N for the configuration stage. */
static bool probe_config_file(struct ck_running *rn, const struct probe_sys *ps, const char *rel)
{
	char path[4096];
	if (ps->rootfd < 0) {
		struct stat st;
		text_snprintf(path, sizeof path, "/%s", rel);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			return false;
		rn->config = xstrdup(path);
		rn->config_shown = xstrdup(path);
		return true;
	}
	int fd = open_file_in_root(ps->rootfd, rel);
	if (fd < 0)
		return false;
	rn->config_fd = fd;
	rn->config_fd_open = true;
	text_snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	rn->config = xstrdup(path);
	text_snprintf(path, sizeof path, "%s/%s", ps->root, rel);
	rn->config_shown = xstrdup(path);
	return true;
}

/* /proc/config.gz, else /boot/config-RELEASE; neither is a warning (the stage is skipped). */
static void probe_config(struct ck_running *rn, const struct probe_sys *ps)
{
	char rel[4096];
	if (probe_config_file(rn, ps, "proc/config.gz")) {
		rn->config_gz = true;
		return;
	}
	text_snprintf(rel, sizeof rel, "boot/config-%s", rn->uname_r);
	if (!strchr(rn->uname_r, '/') && probe_config_file(rn, ps, rel))
		return;
	struct strbuf w = STRBUF_INIT;
	sb_addf(&w, "neither %s/proc/config.gz nor %s/%s is a regular file; the configuration "
		"stage is skipped (load the configs module or pass --config FILE)", ps->root,
		ps->root, rel);
	rn->warning = sb_detach(&w);
}

static void probe_modules(struct ck_running *rn, const struct probe_sys *ps, struct strbuf *sb)
{
	if (probe_read(ps, "proc/modules", sb) != 0)
		return;
	size_t alloc = 0;
	for (char *p = sb->buf; p && *p;) {
		char *eol = strchr(p, '\n');
		size_t n = strcspn(p, " \n");
		if (n) {
			XGROW(rn->modules, rn->nmodules + 1, alloc);
			rn->modules[rn->nmodules++] = xstrndup(p, n);
		}
		p = eol ? eol + 1 : NULL;
	}
}

static int probe_all(struct ck_running *rn, const struct probe_sys *ps, struct strbuf *sb,
		     struct kcve_err *err)
{
	int rc = probe_uname(rn, ps, sb, err);
	if (rc)
		return rc;
	struct kcve_err verr = {0};
	if (read_line_file(ps, "proc/version", sb) &&
	    ck_version_from_proc(sb->buf, rn->release, sizeof rn->release)) {
		/* distro kernel: the upstream release comes from /proc/version */
	} else if (ck_version_normalize(rn->uname_r, rn->release, sizeof rn->release, &verr) != 0) {
		return kcve_err_set(err, KCVE_E_USAGE,
				    "cannot tell the upstream release of the running kernel '%s' (%s/proc/"
				    "version has no distribution release text); pass --version X.Y.Z",
				    rn->uname_r, ps->root);
	}
	probe_config(rn, ps);
	probe_modules(rn, ps, sb);
	return 0;
}

int ck_running_probe(struct ck_running *rn, const char *root, struct kcve_err *err)
{
	memset(rn, 0, sizeof *rn);
	struct probe_sys ps = {root ? root : "", -1};
	if (root) {
		ps.rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (ps.rootfd < 0)
			return kcve_err_set(err, KCVE_E_NOTFOUND, "--root %s: not a directory; give "
					    "the root of the system image to check", root);
	}
	struct strbuf sb = STRBUF_INIT;
	int rc = probe_all(rn, &ps, &sb, err);
	sb_release(&sb);
	if (ps.rootfd >= 0)
		close(ps.rootfd);
	return rc;
}

void ck_running_release(struct ck_running *rn)
{
	for (size_t i = 0; i < rn->nmodules; i++)
		free(rn->modules[i]);
	free(rn->modules);
	free(rn->config);
	free(rn->config_shown);
	free(rn->warning);
	if (rn->config_fd_open)
		close(rn->config_fd);
	memset(rn, 0, sizeof *rn);
}
