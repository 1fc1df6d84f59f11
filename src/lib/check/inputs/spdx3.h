/* SPDX 3.0 JSON-LD SBOMs of a kernel build (kcve check --sbom, repeatable), read for what
 * decides which CVEs apply (docs/check.md "SBOM input"):
 *  - the compiled source files, relative to the kernel tree:
 *      the kernel's own generator (KernelSbom, `make sbom`): every software_File with
 *      software_primaryPurpose "source" (its sbom-source document), the source-tree directory
 *      element excluded;
 *      Yocto/OpenEmbedded (SPDX_INCLUDE_COMPILED_SOURCES): the source software_Files a kernel
 *      recipe's build_Build links by a LifecycleScopedRelationship hasInput of scope build,
 *      named "${BP}/<path>": the first path component is dropped (files of another prefix,
 *      other recipes' sources found through debug information, are not the kernel's);
 *    a name OE's file-name-alias extension adds (a file merged with another of the same
 *    content) counts as listed too;
 *  - the .config: Yocto's kernel-configuration build_Build (SPDX_INCLUDE_KERNEL_CONFIG), one
 *    DictionaryEntry CONFIG_X = value per symbol, written back as .config lines;
 *  - the kernel's version and the element to bind statements to: the kernel's
 *    software_Package (a linux_kernel CPE or purl, the target of the documents' VEX
 *    relationships, a package named linux* or "Linux Kernel ...").
 * Documents are added one by one (elements may refer to elements of another document: the
 * kernel's generator writes three) and resolved by ck_spdx3_finish(). Both @context forms are
 * read: the 3.0.1 (or 3.0.0) context URL, and an array of that URL and one object of short
 * prefixes ("s": "urn:...source/"), which expand the compact ids. An element defined in
 * several documents is read once.
 *
 * Every document is hostile input: at most CK_SPDX3_MAX_BYTES per file (core/fileio's bounded
 * reader: regular files only), CK_SPDX3_MAX_VALUES JSON values counted before jansson builds
 * them (core/kjson.h), JSON nesting at most CK_SPDX3_MAX_DEPTH, at most CK_SPDX3_MAX_ELEMENTS
 * elements in all; every failure is one line (KCVE_E_PARSE for a malformed or non-SPDX-3
 * document, KCVE_E_IO for an unreadable file, KCVE_E_NOTFOUND for a missing one). */
#ifndef KCVE_CHECK_INPUTS_SPDX3_H
#define KCVE_CHECK_INPUTS_SPDX3_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/error.h"

#define CK_SPDX3_MAX_BYTES ((size_t)128 << 20)
#define CK_SPDX3_MAX_DEPTH 64
/* JSON values per document (core/kjson.h; ~235 bytes each in jansson): a distribution
 * kernel's sbom-source (30,000 files) has about 500,000 */
#define CK_SPDX3_MAX_VALUES ((size_t)3 << 20)
#define CK_SPDX3_MAX_ELEMENTS ((size_t)8 << 20)

struct sp3_state;

struct ck_spdx3 {
	/* after ck_spdx3_finish(): */
	char **files;        /* compiled source files, tree-relative, strcmp-sorted, distinct */
	size_t nfiles;
	bool have_files;     /* a document lists compiled sources (else no file list at all) */
	bool debug_files;    /* the list comes from the debug information (DWARF) of the built
			      * objects (Yocto's shape: SPDX_INCLUDE_COMPILED_SOURCES), which names
			      * a header only when code or a type of it is used: a header absent
			      * from it may still be compiled in (ck_spdx3_file_state) */
	char *config;        /* .config text ("CONFIG_X=y\n"...), NULL when no document has one */
	size_t config_len, nconfig; /* its length and number of symbols */
	char *kversion;      /* the kernel's version as written ("6.12.27+git"), or NULL */
	char *element;       /* spdxId (prefixes expanded) of the element to bind to, or NULL */
	char *element_name;  /* its name, or NULL */
	char *purl, *cpe;    /* its software_packageUrl and cpe23 identifier, or NULL */
	const char *producer; /* "the kernel's SBOM generator", "Yocto/OpenEmbedded", "SPDX 3" */
	char warning[256];   /* a problem of the input that is not an error ("" when none) */
	size_t ndocs;        /* documents added */
	struct sp3_state *st; /* documents and elements until finish */
};

void ck_spdx3_init(struct ck_spdx3 *s);
/* Does this parsed JSON look like SPDX 3 JSON-LD (an object with "@context")? */
bool ck_spdx3_is(const json_t *doc);
/* Add one document: from a file (bounded read), from text, or already parsed (the reference to
 * doc is taken, also on failure). name is used in messages. */
int ck_spdx3_add_file(struct ck_spdx3 *s, const char *path, struct kcve_err *err);
int ck_spdx3_add_text(struct ck_spdx3 *s, const char *text, size_t len, const char *name,
		      struct kcve_err *err);
int ck_spdx3_add_json(struct ck_spdx3 *s, json_t *doc, const char *name, struct kcve_err *err);
/* Resolve the documents added into the fields above (once). */
int ck_spdx3_finish(struct ck_spdx3 *s, struct kcve_err *err);
/* Is path (tree-relative) among the compiled files? */
bool ck_spdx3_compiled(const struct ck_spdx3 *s, const char *path);
/* What the file list says of path: 1 compiled (listed), 0 not compiled, -1 cannot tell (a
 * header absent from a list made from debug information: debug_files); *reason (optional)
 * says why, a static string. */
int ck_spdx3_file_state(const struct ck_spdx3 *s, const char *path, const char **reason);
/* "SBOM: 2,310 compiled files, config 8,412 symbols, kernel 6.12.27" */
void ck_spdx3_summary(const struct ck_spdx3 *s, char *out, size_t n);
void ck_spdx3_release(struct ck_spdx3 *s);

#endif
