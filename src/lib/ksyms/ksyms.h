/* The symbols a kernel image defines: the evidence of the check's function-level stage.
 *
 * Sources (each adds names to one set, and says what part of the kernel it covers):
 *  - a build directory: the symbol tables of vmlinux and of every .ko below it, read with
 *    libelf (every defined symbol but sections and file names);
 *  - the running kernel: /proc/kallsyms (vmlinux and the loaded modules) and the module files
 *    of its release below lib/modules/RELEASE (a module not loaded now can be loaded on
 *    demand, so its functions are in "this kernel" too), all below a root directory;
 *  - a System.map (vmlinux only), with the modules of lib/modules/RELEASE when the map is
 *    boot/System.map-RELEASE of a system image or an unpacked kernel package.
 * The modules count as covered only when every module the kernel's modules.order lists was
 * read (a compressed .ko.xz/.ko.zst is not: then they are not covered).  A name is kept up to
 * its first '.' after the first character, so compiler clones ("f.constprop.0", "f.isra.0",
 * "f.cold") count as f.
 *
 * Link-time optimisation may inline a non-static function into other files and drop its
 * symbol, so ksyms says when the kernel was built with it (lto): then absence proves nothing.
 *
 * Every input is hostile: regular files only, reached without symbolic links below the root,
 * reads capped (KSYMS_MAP_MAX, KSYMS_ELF_MAX), at most KSYMS_FILES_MAX module files. Of an
 * ELF file only its first symbol table and that table's names are read, at most
 * KSYMS_TABLE_MAX bytes, and an open reads at most KSYMS_RUN_MAX bytes of tables within
 * KSYMS_TIME_MAX_MS. A module file that cannot be used (too large, truncated, damaged,
 * stripped, past the budget) is left out: the modules are then not covered, and warning names
 * the first such file (the caller shows it once). */
#ifndef KCVE_KSYMS_KSYMS_H
#define KCVE_KSYMS_KSYMS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strmap.h"

#define KSYMS_MAP_MAX ((size_t)256 << 20) /* a System.map or kallsyms */
#define KSYMS_ELF_MAX ((size_t)2 << 30)   /* a vmlinux with debug information */
#define KSYMS_FILES_MAX 200000            /* module files below a directory */
#define KSYMS_SECTIONS_MAX (1 << 20)      /* sections of one ELF file */
#define KSYMS_TABLE_MAX ((size_t)128 << 20) /* symbol table + its names, per file */
#define KSYMS_RUN_MAX ((size_t)1 << 30)   /* symbol tables read by one open, all files */
#define KSYMS_TIME_MAX_MS 20000           /* reading the files of one open */
#define KSYMS_NAME_MAX 512                /* the kernel's KSYM_NAME_LEN */

enum ksyms_cover {
	KSYMS_VMLINUX = 1u << 0, /* the kernel image itself */
	KSYMS_MODULES = 1u << 1, /* every module built for it */
};

struct ksyms {
	struct strset names;
	unsigned cover;  /* enum ksyms_cover */
	char desc[512];  /* the sources, for the evidence: "System.map F + 4023 modules in D" */
	size_t modules;  /* module files read */
	size_t skipped;  /* module files left out: too large, damaged, past the run's budget */
	char warning[768]; /* "" or one line naming the first of them and why, for a warning */
	size_t read_bytes;     /* symbol tables read so far (KSYMS_RUN_MAX) */
	long long started_ms;  /* when the first was read (KSYMS_TIME_MAX_MS) */
	bool lto;        /* built with link-time optimisation: CONFIG_LTO_CLANG in the kernel's
			  * configuration (build/.config, boot/config-RELEASE beside the map or in
			  * the root), or clang's promoted-local names ("f.llvm.123") */
};

void ksyms_free(struct ksyms *k);
/* Add one name (len bytes; normalised as above). */
void ksyms_add(struct ksyms *k, const char *name, size_t len);
bool ksyms_has(const struct ksyms *k, const char *name);

/* Parse a System.map or kallsyms text ("ADDRESS TYPE NAME [\t[MODULE]]" lines); malformed
 * lines are skipped, the count of names added is returned. */
size_t ksyms_parse_map(struct ksyms *k, const char *buf, size_t len);
/* Add the defined symbols of the ELF file open at fd (not closed). 0, or -1 with err set. */
int ksyms_read_elf_fd(struct ksyms *k, int fd, const char *what, struct kcve_err *err);

/* The three sources; each starts a new set in *k (call ksyms_free when done, also after an
 * error). 0, or -1 with err set (KCVE_E_NOTFOUND, KCVE_E_PARSE, KCVE_E_IO). */
int ksyms_open_build(struct ksyms *k, const char *builddir, struct kcve_err *err);
/* root NULL: "/"; release: the running kernel's (uname -r inside root). */
int ksyms_open_running(struct ksyms *k, const char *root, const char *release,
		       struct kcve_err *err);
int ksyms_open_system_map(struct ksyms *k, const char *path, struct kcve_err *err);

#endif
