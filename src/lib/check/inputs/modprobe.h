/* The modprobe configuration of a system image (`kcve check --running [--root DIR]`): which
 * modules its rules keep from loading, with the evidence (file:line and the rule).
 *
 * Files: *.conf in etc/modprobe.d, run/modprobe.d, usr/local/lib/modprobe.d, usr/lib/modprobe.d
 * and lib/modprobe.d, in that order of precedence, as modprobe.d(5) and kmod read them: a file
 * name in an earlier directory hides the same name in later ones (a link to /dev/null there
 * masks it), and the files are then read in the order of their names.  Everything is read
 * inside the root: a directory or file reached through a symbolic link is skipped (merged-/usr
 * images reach lib/modprobe.d as usr/lib/modprobe.d, which is read anyway), only regular files,
 * at most CK_MODPROBE_FILE_MAX bytes each and CK_MODPROBE_FILES files.
 *
 * Rules that matter (the rest -- alias, options, softdep, remove -- are ignored):
 *   blacklist M          modprobe ignores M's aliases.  It does not stop `modprobe M`, nor M
 *                        loaded as another module's dependency: the code can still be loaded.
 *   install M CMD        modprobe runs CMD (through /bin/sh -c) instead of loading M, for an
 *                        explicit request, an alias or a dependency alike.  It fully blocks
 *                        loading only when CMD is one simple command that loads nothing: its
 *                        first word is true, false, /bin/true, /bin/false, /usr/bin/true or
 *                        /usr/bin/false (arguments are ignored by those programs) and the text
 *                        has none of ; & | ` $ ( ) < > \ newline (no second command, no
 *                        substitution, no redirection).  Anything else ("/sbin/modprobe
 *                        --ignore-install M", "/bin/false; modprobe ...") may load M: not a block.
 *                        When several install rules name M, the first in reading order applies.
 * Besides the files: module_blacklist=M,... on the kernel command line (proc/cmdline) makes the
 * kernel refuse M (blocked), modprobe.blacklist=M,... there is a blacklist rule, and
 * proc/sys/kernel/modules_disabled = 1 blocks every module.
 * Module names compare with '-' folded to '_', as the module loader does.  A line ending in '\'
 * continues on the next one; '#' starts a comment line.
 *
 * Built-in modules: lib/modules/RELEASE/modules.builtin (or usr/lib/modules/...) of the image
 * lists the objects built into the kernel ("kernel/net/core/failover.ko"); a rule naming one
 * of them does nothing (there is nothing to load), and the Kbuild mapping alone cannot tell
 * obj-y from obj-m.  Without that file kcve cannot tell built-in code from a module, so no rule
 * counts (ck_modprobe_knows_builtin() is false). */
#ifndef KCVE_CHECK_MODPROBE_H
#define KCVE_CHECK_MODPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/error.h"

#define CK_MODPROBE_FILE_MAX ((size_t)1 << 20)
#define CK_MODPROBE_FILES 4096

enum ck_mp_rule {
	CK_MP_NONE = 0,
	CK_MP_BLACKLIST = 1, /* aliases ignored: still loadable by name or as a dependency */
	CK_MP_BLOCKED = 2,   /* install M true/false: never loaded by modprobe */
};

struct ck_modprobe;

/* Read the configuration under root ("" or NULL = this machine's /).  Missing directories are
 * not an error (an image without modprobe.d has no rules); a file that cannot be read is
 * skipped and reported to diag (NULL: the default sink, core/diag.h). */
int ck_modprobe_load(struct ck_modprobe **out, const char *root, const char *uname_r,
		     const struct kcve_diag *diag, struct kcve_err *err);
/* The kernel command line (proc/cmdline): module_blacklist=a,b makes the kernel refuse those
 * modules whoever loads them (blocked); modprobe.blacklist=a,b is a blacklist rule. */
void ck_modprobe_add_cmdline(struct ck_modprobe *mp, const char *text, size_t len);
/* kernel.modules_disabled = 1 (proc/sys/kernel/modules_disabled): no module loads any more;
 * why is the evidence. */
void ck_modprobe_set_disabled(struct ck_modprobe *mp, const char *why);
/* modules.builtin text ("kernel/.../NAME.ko" lines) added to mp (unit tests, fuzzer). */
void ck_modprobe_add_builtin(struct ck_modprobe *mp, const char *text, size_t len);
/* Whether modules.builtin was read, and whether it lists the module. */
bool ck_modprobe_knows_builtin(const struct ck_modprobe *mp);
bool ck_modprobe_is_builtin(const struct ck_modprobe *mp, const char *module);
/* An empty configuration, and one file's text added to it (unit tests, fuzzer): where names the
 * file in evidence ("etc/modprobe.d/x.conf"). */
struct ck_modprobe *ck_modprobe_new(void);
void ck_modprobe_add_text(struct ck_modprobe *mp, const char *where, const char *text,
			  size_t len);
/* The strongest rule for a module: CK_MP_BLOCKED over CK_MP_BLACKLIST.  *why (optional) points
 * at "etc/modprobe.d/x.conf:3: install nf_tables /bin/false" (valid while mp lives). */
enum ck_mp_rule ck_modprobe_rule(const struct ck_modprobe *mp, const char *module,
				 const char **why);
size_t ck_modprobe_nfiles(const struct ck_modprobe *mp);
void ck_modprobe_free(struct ck_modprobe *mp);

/* Does an install command fully block loading (see above)? */
bool ck_modprobe_cmd_blocks(const char *cmd);
/* Module name with '-' folded to '_' into out (false when not a module name: empty, too long,
 * or a byte outside [A-Za-z0-9_-]). */
bool ck_module_name_norm(const char *in, size_t n, char *out, size_t outsz);

#endif
