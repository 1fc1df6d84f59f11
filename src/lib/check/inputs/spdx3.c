/* SPDX 3.0 JSON-LD SBOMs of a kernel build (see check/inputs/spdx3.h). */
#include "check/inputs/spdx3.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/fileio.h"
#include "core/kjson.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"

#define MAX_PREFIXES 256

struct sp3_doc {
	json_t *root;
	char *name;
	struct strmap prefix; /* short prefix -> IRI (char *) */
};

/* One element: its object and the document whose prefixes its references use. */
struct sp3_elem {
	json_t *o;
	size_t doc;
	size_t seq; /* reading order, for deterministic choices */
};

struct sp3_state {
	struct sp3_doc *docs;
	size_t ndocs, dalloc;
	struct strmap elems; /* expanded id -> struct sp3_elem * */
	struct sp3_elem **anon; /* elements without an id (still read: files, builds) */
	size_t nanon, aalloc;
	size_t nelems;
	bool finished;
};

static const char *const contexts[] = {
	"https://spdx.org/rdf/3.0.1/spdx-context.jsonld",
	"https://spdx.org/rdf/3.0.0/spdx-context.jsonld",
};

void ck_spdx3_init(struct ck_spdx3 *s)
{
	memset(s, 0, sizeof *s);
	s->st = xcalloc(1, sizeof *s->st);
}

bool ck_spdx3_is(const json_t *doc)
{
	return json_is_object(doc) && json_object_get(doc, "@context") != NULL;
}

/* Nesting depth of JSON text, strings skipped; stops once over cap. */
static unsigned json_depth(const char *t, size_t len, unsigned cap)
{
	unsigned d = 0, max = 0;
	bool str = false;
	for (size_t i = 0; i < len; i++) {
		char c = t[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
			continue;
		}
		if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			if (++d > max && (max = d) > cap)
				return max;
		} else if ((c == '}' || c == ']') && d) {
			d--;
		}
	}
	return max;
}

static bool known_context(const char *u)
{
	for (size_t i = 0; i < sizeof contexts / sizeof *contexts; i++)
		if (u && !strcmp(u, contexts[i]))
			return true;
	return false;
}

/* The document's @context: the SPDX 3 context URL, or an array of it and prefix objects. */
static int read_context(struct sp3_doc *d, json_t *ctx, struct kcve_err *err)
{
	if (json_is_string(ctx)) {
		if (known_context(json_string_value(ctx)))
			return 0;
		return kcve_err_set(err, KCVE_E_PARSE, "%s: @context %s is not SPDX 3.0's "
				    "(https://spdx.org/rdf/3.0.1/spdx-context.jsonld)", d->name,
				    json_string_value(ctx));
	}
	if (!json_is_array(ctx))
		return kcve_err_set(err, KCVE_E_PARSE, "%s: @context is neither the SPDX 3.0 context "
				    "URL nor an array holding it", d->name);
	bool spdx = false;
	size_t i;
	json_t *c;
	json_array_foreach(ctx, i, c) {
		if (json_is_string(c)) {
			if (!known_context(json_string_value(c)))
				return kcve_err_set(err, KCVE_E_PARSE, "%s: @context names %s, not the "
						    "SPDX 3.0 context", d->name, json_string_value(c));
			spdx = true;
			continue;
		}
		if (!json_is_object(c))
			return kcve_err_set(err, KCVE_E_PARSE, "%s: @context entry %zu is neither a URL "
					    "nor an object of prefixes", d->name, i);
		const char *k;
		json_t *v;
		json_object_foreach(c, k, v) {
			if (!json_is_string(v))
				return kcve_err_set(err, KCVE_E_PARSE, "%s: @context prefix \"%s\" is not "
						    "a plain IRI (only prefix: IRI entries are read)",
						    d->name, k);
			if (d->prefix.count >= MAX_PREFIXES)
				return kcve_err_set(err, KCVE_E_PARSE, "%s: more than %d @context "
						    "prefixes", d->name, MAX_PREFIXES);
			free(strmap_put(&d->prefix, k, xstrdup(json_string_value(v))));
		}
	}
	if (!spdx)
		return kcve_err_set(err, KCVE_E_PARSE, "%s: @context does not include the SPDX 3.0 "
				    "context URL", d->name);
	return 0;
}

/* ref with the document's prefixes expanded; blank nodes ("_:x") are the document's own. */
static const char *expand(const struct sp3_state *st, size_t doc, const char *ref,
			  struct strbuf *out)
{
	sb_reset(out);
	if (!ref)
		return NULL;
	if (!strncmp(ref, "_:", 2)) {
		sb_addf(out, "_:%zu:%s", doc, ref + 2);
		return sb_str(out);
	}
	const char *colon = strchr(ref, ':');
	if (colon && strncmp(colon, "://", 3)) {
		const char *iri = strmap_getn(&st->docs[doc].prefix, ref, (size_t)(colon - ref));
		if (iri) {
			sb_adds(out, iri);
			sb_adds(out, colon + 1);
			return sb_str(out);
		}
	}
	sb_adds(out, ref);
	return sb_str(out);
}

static const char *str_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* An SPDX enumeration value: its compact name, or the vocabulary IRI ending in "/name". */
static bool enum_is(const char *v, const char *name)
{
	if (!v)
		return false;
	if (!strcmp(v, name))
		return true;
	size_t lv = strlen(v), ln = strlen(name);
	return lv > ln && v[lv - ln - 1] == '/' && !strcmp(v + lv - ln, name);
}

static bool type_is(const json_t *o, const char *type)
{
	const char *t = str_of(o, "type");
	if (!t)
		t = str_of(o, "@type");
	return t && !strcmp(t, type);
}

static int add_elem(struct ck_spdx3 *s, size_t doc, json_t *o, struct strbuf *tmp,
		    struct kcve_err *err)
{
	struct sp3_state *st = s->st;
	if (!json_is_object(o))
		return kcve_err_set(err, KCVE_E_PARSE, "%s: an @graph entry is not an object",
				    st->docs[doc].name);
	if (++st->nelems > CK_SPDX3_MAX_ELEMENTS)
		return kcve_err_set(err, KCVE_E_PARSE, "%s: more than %zu SPDX elements in the "
				    "documents given", st->docs[doc].name, CK_SPDX3_MAX_ELEMENTS);
	struct sp3_elem *e = xcalloc(1, sizeof *e);
	e->o = o;
	e->doc = doc;
	e->seq = st->nelems;
	const char *id = str_of(o, "spdxId");
	if (!id)
		id = str_of(o, "@id");
	if (!id) {
		XGROW(st->anon, st->nanon + 1, st->aalloc);
		st->anon[st->nanon++] = e;
		return 0;
	}
	const char *full = expand(st, doc, id, tmp);
	if (strmap_contains(&st->elems, full)) {
		free(e); /* the same element in another document: read once */
		return 0;
	}
	strmap_put(&st->elems, full, e);
	return 0;
}

int ck_spdx3_add_json(struct ck_spdx3 *s, json_t *root, const char *name, struct kcve_err *err)
{
	struct sp3_state *st = s->st;
	KCVE_ASSERT(!st->finished);
	if (!ck_spdx3_is(root)) {
		json_decref(root);
		return kcve_err_set(err, KCVE_E_PARSE, "%s is not SPDX 3.0 JSON-LD (no @context)", name);
	}
	XGROW(st->docs, st->ndocs + 1, st->dalloc);
	size_t di = st->ndocs++;
	struct sp3_doc *d = &st->docs[di];
	memset(d, 0, sizeof *d);
	d->root = root;
	d->name = xstrdup(name);
	s->ndocs = st->ndocs;
	int rc = read_context(d, json_object_get(root, "@context"), err);
	if (rc)
		return rc;
	json_t *graph = json_object_get(root, "@graph");
	struct strbuf tmp = STRBUF_INIT;
	if (graph && !json_is_array(graph)) {
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: @graph is not an array", name);
	} else if (!graph) {
		/* a document of one element */
		rc = add_elem(s, di, root, &tmp, err);
	} else {
		size_t i;
		json_t *o;
		json_array_foreach(graph, i, o) {
			if ((rc = add_elem(s, di, o, &tmp, err)) != 0)
				break;
		}
	}
	sb_release(&tmp);
	return rc;
}

int ck_spdx3_add_text(struct ck_spdx3 *s, const char *text, size_t len, const char *name,
		      struct kcve_err *err)
{
	if (len > CK_SPDX3_MAX_BYTES)
		return kcve_err_set(err, KCVE_E_PARSE, "%s is larger than %zu MiB", name,
				    CK_SPDX3_MAX_BYTES >> 20);
	if (json_depth(text, len, CK_SPDX3_MAX_DEPTH) > CK_SPDX3_MAX_DEPTH)
		return kcve_err_set(err, KCVE_E_PARSE, "%s nests JSON deeper than %d levels; no SPDX 3 "
				    "document does", name, CK_SPDX3_MAX_DEPTH);
	static const struct kj_limits lim = {CK_SPDX3_MAX_BYTES, CK_SPDX3_MAX_VALUES};
	struct strbuf what = STRBUF_INIT;
	sb_addf(&what, "the SBOM %s", name);
	json_t *root;
	int rc = kj_parse(text, len, &lim, what.buf, "", &root, err);
	sb_release(&what);
	return rc ? err->code : ck_spdx3_add_json(s, root, name, err);
}

int ck_spdx3_add_file(struct ck_spdx3 *s, const char *path, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file_capped(path, &sb, CK_SPDX3_MAX_BYTES) != 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				    "cannot read the SBOM %s: %s (a regular file of at most %zu MiB)",
				    path, read_file_reason(e), CK_SPDX3_MAX_BYTES >> 20);
	}
	int rc = ck_spdx3_add_text(s, sb.buf ? sb.buf : "", sb.len, path, err);
	sb_release(&sb);
	return rc;
}

/* ---- resolving ------------------------------------------------------------------------- */

static struct sp3_elem *lookup(const struct sp3_state *st, size_t doc, const json_t *ref,
			       struct strbuf *tmp, struct sp3_elem *inl)
{
	if (json_is_object(ref)) { /* an element written inline */
		inl->o = (json_t *)ref;
		inl->doc = doc;
		inl->seq = 0;
		return inl;
	}
	const char *full = expand(st, doc, json_string_value(ref), tmp);
	return full ? strmap_get(&st->elems, full) : NULL;
}

/* Call fn on each element a reference property lists (one reference, or an array of them). */
typedef void (*ref_fn)(struct sp3_elem *e, void *ctx);
static void each_ref(const struct sp3_state *st, const struct sp3_elem *from, const char *key,
		     ref_fn fn, void *ctx)
{
	json_t *v = json_object_get(from->o, key);
	struct strbuf tmp = STRBUF_INIT;
	struct sp3_elem inl;
	if (json_is_array(v)) {
		size_t i;
		json_t *r;
		json_array_foreach(v, i, r) {
			struct sp3_elem *e = lookup(st, from->doc, r, &tmp, &inl);
			if (e)
				fn(e, ctx);
		}
	} else if (v) {
		struct sp3_elem *e = lookup(st, from->doc, v, &tmp, &inl);
		if (e)
			fn(e, ctx);
	}
	sb_release(&tmp);
}

static struct sp3_elem *ref_one(const struct sp3_state *st, const struct sp3_elem *from,
				const char *key, struct strbuf *tmp)
{
	json_t *v = json_object_get(from->o, key);
	if (json_is_array(v))
		v = json_array_get(v, 0);
	return json_is_string(v) ? lookup(st, from->doc, v, tmp, NULL) : NULL;
}

/* Every element, in reading order (ids in insertion order, then those without one). */
static size_t elem_count(const struct sp3_state *st)
{
	return st->elems.count + st->nanon;
}

static struct sp3_elem *elem_at(const struct sp3_state *st, size_t i)
{
	return i < st->elems.count ? strmap_at(&st->elems, i)->val : st->anon[i - st->elems.count];
}

static bool is_source_file(const json_t *o)
{
	return type_is(o, "software_File") &&
	       enum_is(str_of(o, "software_primaryPurpose"), "source") &&
	       !enum_is(str_of(o, "software_fileKind"), "directory");
}

/* A tree-relative path from a name: "./" dropped, absolute paths, empty and ".." components,
 * generator placeholders ("$(src_tree)/...") and control characters refused (NULL). */
static const char *clean_path(const char *name)
{
	if (!name)
		return NULL;
	while (!strncmp(name, "./", 2))
		name += 2;
	if (!*name || *name == '/' || *name == '$' || strlen(name) > 4096)
		return NULL;
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return NULL;
	for (const char *c = name; c; c = strchr(c, '/')) {
		if (*c == '/')
			c++;
		if (*c == '/' || *c == '\0' || (!strncmp(c, "..", 2) && (c[2] == '/' || !c[2])) ||
		    (c[0] == '.' && (c[1] == '/' || !c[1])))
			return NULL;
	}
	return name;
}

/* OE's file-name-alias extension: the other names of a file merged with this one by content. */
static void each_alias(const json_t *o, void (*fn)(const char *, void *), void *ctx)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(o, "extension"), i, x) {
		const char *k;
		json_t *v;
		json_object_foreach(x, k, v) {
			size_t kl = strlen(k);
			if (kl < 14 || strcmp(k + kl - 14, "filename-alias"))
				continue;
			if (json_is_string(v))
				fn(json_string_value(v), ctx);
			size_t j;
			json_t *a;
			json_array_foreach(v, j, a)
				if (json_is_string(a))
					fn(json_string_value(a), ctx);
		}
	}
}

/* The files collected, and for Yocto the ${BP} prefixes seen. */
struct collect {
	struct strset files;
	struct strmap bp; /* first component -> count (size_t stored in the pointer) */
	bool yocto;
	const char *only_bp; /* second pass: keep names with this first component */
};

static void take_name(const char *name, void *ctx)
{
	struct collect *c = ctx;
	if (c->yocto) {
		const char *slash = name ? strchr(name, '/') : NULL;
		if (!slash || slash == name)
			return;
		size_t n = (size_t)(slash - name);
		if (!c->only_bp) {
			struct strmap_ent *e = strmap_find(&c->bp, name, n);
			if (e) {
				e->val = (void *)((size_t)e->val + 1);
			} else {
				char *k = xstrndup(name, n);
				strmap_put(&c->bp, k, (void *)(size_t)1);
				free(k);
			}
			return;
		}
		if (strlen(c->only_bp) != n || strncmp(name, c->only_bp, n))
			return;
		name = slash + 1;
	}
	const char *p = clean_path(name);
	if (p)
		strset_add(&c->files, p);
}

static void take_file(struct sp3_elem *e, void *ctx)
{
	if (!is_source_file(e->o))
		return;
	take_name(str_of(e->o, "name"), ctx);
	each_alias(e->o, take_name, ctx);
}

/* Yocto: a build_Build's LifecycleScopedRelationship hasInput of scope build, to sources. */
static bool build_inputs(const struct sp3_elem *r)
{
	return type_is(r->o, "LifecycleScopedRelationship") &&
	       enum_is(str_of(r->o, "relationshipType"), "hasInput") &&
	       enum_is(str_of(r->o, "scope"), "build");
}

static bool kernel_config_build(const json_t *o)
{
	const char *bt = str_of(o, "build_buildType");
	return type_is(o, "build_Build") && bt &&
	       (!strcmp(bt, "https://openembedded.org/kernel-configuration") ||
		!strcmp(bt, "http://openembedded.org/kernel-configuration"));
}

static bool starts_linux(const char *n)
{
	return n && !strncasecmp(n, "linux", 5);
}

/* A recipe build's name ("linux-yocto:do_create_spdx:recipe") that names a kernel: linux*,
 * but not the recipes of the kernel's headers or firmware, nor a native tool. */
static bool kernel_recipe(const char *name)
{
	static const char *const not_kernel[] = {"linux-libc-headers", "linux-firmware"};
	if (!starts_linux(name))
		return false;
	size_t n = strcspn(name, ":");
	for (size_t i = 0; i < sizeof not_kernel / sizeof *not_kernel; i++)
		if (!strncmp(name, not_kernel[i], strlen(not_kernel[i])))
			return false;
	return !(n > 7 && !strncmp(name + n - 7, "-native", 7));
}

/* The kernel recipe's build among the builds with compiled sources (Yocto): the one a
 * kernel-configuration build descends from, else the one recipe named as a kernel, else the
 * only build. *out NULL when no build lists sources (not Yocto's shape); an error when builds
 * do but none or several are a kernel's (an image SBOM of several recipes). */
static int kernel_build(const struct sp3_state *st, struct strbuf *tmp,
			const struct sp3_elem **out, struct kcve_err *err)
{
	const struct sp3_elem **builds = NULL, *named = NULL, *named2 = NULL;
	size_t n = 0, alloc = 0;
	*out = NULL;
	for (size_t i = 0; i < elem_count(st); i++) {
		struct sp3_elem *r = elem_at(st, i);
		if (type_is(r->o, "Relationship") &&
		    enum_is(str_of(r->o, "relationshipType"), "ancestorOf")) {
			struct sp3_elem *to = ref_one(st, r, "to", tmp);
			struct sp3_elem *from = ref_one(st, r, "from", tmp);
			if (to && from && kernel_config_build(to->o) && type_is(from->o, "build_Build")) {
				free(builds);
				*out = from;
				return 0;
			}
		}
		if (!build_inputs(r))
			continue;
		struct sp3_elem *from = ref_one(st, r, "from", tmp);
		if (!from || !type_is(from->o, "build_Build"))
			continue;
		bool seen = false;
		for (size_t j = 0; j < n && !seen; j++)
			seen = builds[j] == from;
		if (seen)
			continue;
		XGROW(builds, n + 1, alloc);
		builds[n++] = from;
		if (kernel_recipe(str_of(from->o, "name"))) {
			if (named)
				named2 = named2 ? named2 : from;
			else
				named = from;
		}
	}
	const struct sp3_elem *only = n == 1 ? builds[0] : NULL;
	free(builds);
	if (named2) {
		const char *a = str_of(named->o, "name"), *b = str_of(named2->o, "name");
		return kcve_err_set(err, KCVE_E_PARSE, "the SBOM holds the compiled sources of several "
				    "kernel recipes (%.*s, %.*s); give the documents of one kernel",
				    (int)strcspn(a, ":"), a, (int)strcspn(b, ":"), b);
	}
	*out = named ? named : only;
	if (!*out && n)
		return kcve_err_set(err, KCVE_E_PARSE, "the SBOM holds the compiled sources of %zu "
				    "recipes and none is a kernel's (a recipe named linux-*); give the "
				    "kernel recipe's build document", n);
	return 0;
}

struct yocto_ctx {
	const struct sp3_state *st;
	const struct sp3_elem *build;
	struct collect *c;
	struct strbuf tmp;
};

static void yocto_files(struct yocto_ctx *y)
{
	for (size_t i = 0; i < elem_count(y->st); i++) {
		struct sp3_elem *r = elem_at(y->st, i);
		if (!build_inputs(r) || ref_one(y->st, r, "from", &y->tmp) != y->build)
			continue;
		each_ref(y->st, r, "to", take_file, y->c);
	}
}

/* The most frequent first component of the recipe's source names: its ${BP}. */
static const char *main_bp(const struct collect *c)
{
	const char *best = NULL;
	size_t n = 0;
	for (size_t i = 0; i < c->bp.count; i++) {
		struct strmap_ent *e = strmap_at(&c->bp, i);
		if ((size_t)e->val > n) {
			n = (size_t)e->val;
			best = e->key;
		}
	}
	return best;
}

/* A list with .c files of two architectures lists every source file, not the compiled ones
 * (OE does so when the debug sources of the build are missing). */
static bool several_arches(struct ck_spdx3 *s)
{
	const char *first = NULL;
	size_t flen = 0;
	for (size_t i = 0; i < s->nfiles; i++) {
		const char *f = s->files[i], *a;
		size_t l = strlen(f);
		if (strncmp(f, "arch/", 5) || l < 2 || strcmp(f + l - 2, ".c") ||
		    !(a = strchr(f + 5, '/')))
			continue;
		size_t n = (size_t)(a - f);
		if (!first) {
			first = f;
			flen = n;
		} else if (n != flen || strncmp(f, first, n)) {
			return true;
		}
	}
	return false;
}

static int collect_files(struct ck_spdx3 *s, struct strbuf *tmp, struct kcve_err *err)
{
	struct sp3_state *st = s->st;
	const struct sp3_elem *build;
	if (kernel_build(st, tmp, &build, err) != 0)
		return err->code;
	struct collect c = {.files = STRSET_INIT, .bp = STRMAP_INIT};
	if (build) {
		s->producer = "Yocto/OpenEmbedded";
		c.yocto = true;
		struct yocto_ctx y = {st, build, &c, STRBUF_INIT};
		yocto_files(&y); /* the prefixes */
		c.only_bp = main_bp(&c);
		if (c.only_bp)
			yocto_files(&y);
		sb_release(&y.tmp);
	} else {
		for (size_t i = 0; i < elem_count(st); i++)
			take_file(elem_at(st, i), &c);
	}
	s->have_files = strset_count(&c.files) > 0;
	s->debug_files = c.yocto && s->have_files;
	s->nfiles = strset_count(&c.files);
	s->files = xcalloc(s->nfiles + 1, sizeof *s->files);
	for (size_t i = 0; i < s->nfiles; i++)
		s->files[i] = xstrdup(strset_at(&c.files, i));
	if (s->nfiles)
		qsort(s->files, s->nfiles, sizeof *s->files, cmp_str);
	if (c.yocto && c.only_bp && s->kversion == NULL) {
		/* ${BP} is PN-PV: "linux-yocto-6.12.27+git" */
		const char *v = c.only_bp;
		for (const char *p = c.only_bp; *p; p++)
			if (*p == '-' && isdigit((unsigned char)p[1]))
				v = p + 1;
		if (v != c.only_bp)
			s->kversion = xstrdup(v);
	}
	strset_clear(&c.files);
	strmap_free(&c.bp, NULL);
	if (several_arches(s)) {
		snprintf(s->warning, sizeof s->warning, "the SBOM lists source files of several "
			 "architectures, so every source file rather than the compiled ones (OE writes "
			 "that when the kernel's debug sources are missing); its file list is not used");
		for (size_t i = 0; i < s->nfiles; i++)
			free(s->files[i]);
		s->nfiles = 0;
		s->have_files = s->debug_files = false;
	}
	return 0;
}

static bool config_key(const char *k)
{
	if (!k || strncmp(k, "CONFIG_", 7) || !k[7])
		return false;
	for (const char *p = k + 7; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

/* A .config value as written by Kconfig: tristates and numbers bare, strings quoted. */
static void config_value(struct strbuf *out, const char *v)
{
	bool bare = !strcmp(v, "y") || !strcmp(v, "m") || !strcmp(v, "n");
	if (!bare && *v) {
		const char *p = v;
		if (!strncmp(p, "0x", 2) && p[2]) {
			for (p += 2; isxdigit((unsigned char)*p); p++)
				;
		} else {
			if (*p == '-')
				p++;
			const char *d = p;
			while (isdigit((unsigned char)*p))
				p++;
			if (p == d)
				p = v; /* not a number */
		}
		bare = *p == '\0' && p != v;
	}
	if (bare) {
		sb_adds(out, v);
		return;
	}
	sb_addc(out, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_addc(out, '\\');
		sb_addc(out, *p);
	}
	sb_addc(out, '"');
}

static int read_config(struct ck_spdx3 *s, const struct sp3_elem *b, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct strset seen = STRSET_INIT;
	size_t i;
	json_t *e;
	int rc = 0;
	json_array_foreach(json_object_get(b->o, "build_parameter"), i, e) {
		const char *k = str_of(e, "key");
		json_t *jv = json_object_get(e, "value");
		const char *v = jv ? json_string_value(jv) : "";
		if (!config_key(k) || !v) {
			rc = kcve_err_set(err, KCVE_E_PARSE, "%s: kernel-configuration entry %zu is not "
					  "a CONFIG_ symbol with a string value", s->st->docs[b->doc].name, i);
			break;
		}
		bool ctl = false;
		for (const char *p = v; *p; p++)
			ctl |= (unsigned char)*p < 0x20 || *p == 0x7f;
		if (ctl || strlen(v) > 4096) {
			rc = kcve_err_set(err, KCVE_E_PARSE, "%s: the value of %s has a control "
					  "character or is longer than 4096 bytes",
					  s->st->docs[b->doc].name, k);
			break;
		}
		if (!strset_add(&seen, k))
			continue; /* the first value of a symbol, as Kconfig reads a .config */
		sb_addf(&sb, "%s=", k);
		config_value(&sb, v);
		sb_addc(&sb, '\n');
	}
	if (rc == 0) {
		s->nconfig = strset_count(&seen);
		s->config_len = sb.len;
		s->config = sb_detach(&sb);
	}
	strset_clear(&seen);
	sb_release(&sb);
	return rc;
}

static int collect_config(struct ck_spdx3 *s, struct strbuf *tmp, struct kcve_err *err)
{
	struct sp3_state *st = s->st;
	const struct sp3_elem *cfg = NULL;
	size_t n = 0;
	for (size_t i = 0; i < elem_count(st); i++) {
		struct sp3_elem *e = elem_at(st, i);
		if (kernel_config_build(e->o)) {
			n++;
			if (!cfg)
				cfg = e;
		}
	}
	(void)tmp;
	if (n > 1)
		return kcve_err_set(err, KCVE_E_PARSE, "the SBOM documents hold %zu kernel "
				    "configurations (OE kernel-configuration builds); give the "
				    "documents of one kernel", n);
	return cfg ? read_config(s, cfg, err) : 0;
}

/* ---- the kernel's package --------------------------------------------------------------- */

static bool kernel_ident(const char *id)
{
	return id && (strstr(id, ":linux:linux_kernel:") || strstr(id, ":*:linux_kernel:") ||
		      !strncmp(id, "pkg:generic/linux-kernel@", 25) ||
		      !strncmp(id, "pkg:generic/linux@", 18));
}

static int package_rank(const json_t *o)
{
	if (!type_is(o, "software_Package"))
		return 0;
	if (kernel_ident(str_of(o, "software_packageUrl")))
		return 4;
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(o, "externalIdentifier"), i, x) {
		if (kernel_ident(str_of(x, "identifier")))
			return 4;
	}
	const char *n = str_of(o, "name");
	if (starts_linux(n))
		return 2;
	return n && !strcmp(n, "kernel") ? 1 : 0;
}

struct pick {
	struct sp3_elem *best;
	int rank;
};

static void vex_target(struct sp3_elem *e, void *ctx)
{
	struct pick *p = ctx;
	if (type_is(e->o, "software_Package") && p->rank < 3) {
		p->best = e;
		p->rank = 3;
	}
}

static void collect_package(struct ck_spdx3 *s)
{
	struct sp3_state *st = s->st;
	struct pick p = {0};
	for (size_t i = 0; i < elem_count(st); i++) {
		struct sp3_elem *e = elem_at(st, i);
		const char *t = str_of(e->o, "type");
		if (t && !strncmp(t, "security_Vex", 12)) {
			each_ref(st, e, "to", vex_target, &p);
			continue;
		}
		if (t && !strcmp(t, "SoftwareAgent") && str_of(e->o, "name") &&
		    !strcmp(str_of(e->o, "name"), "KernelSbom"))
			s->producer = "the kernel's SBOM generator";
		int r = package_rank(e->o);
		if (r > p.rank) {
			p.best = e;
			p.rank = r;
		}
	}
	if (!p.best)
		return;
	const char *id = str_of(p.best->o, "spdxId");
	struct strbuf tmp = STRBUF_INIT;
	if (id)
		s->element = xstrdup(expand(st, p.best->doc, id, &tmp));
	sb_release(&tmp);
	const char *n = str_of(p.best->o, "name"), *v = str_of(p.best->o, "software_packageVersion");
	s->element_name = n ? xstrdup(n) : NULL;
	const char *purl = str_of(p.best->o, "software_packageUrl");
	s->purl = purl && *purl ? xstrdup(purl) : NULL;
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(p.best->o, "externalIdentifier"), i, x) {
		const char *c = str_of(x, "identifier");
		if (!s->cpe && c && enum_is(str_of(x, "externalIdentifierType"), "cpe23"))
			s->cpe = xstrdup(c);
	}
	if (v && *v) {
		free(s->kversion);
		s->kversion = xstrdup(v);
	}
}

int ck_spdx3_finish(struct ck_spdx3 *s, struct kcve_err *err)
{
	struct sp3_state *st = s->st;
	KCVE_ASSERT(!st->finished);
	st->finished = true;
	s->producer = "SPDX 3";
	if (!st->ndocs)
		return kcve_err_set(err, KCVE_E_PARSE, "no SPDX 3 document given");
	struct strbuf tmp = STRBUF_INIT;
	int rc = collect_files(s, &tmp, err);
	if (rc == 0)
		rc = collect_config(s, &tmp, err);
	if (rc == 0)
		collect_package(s);
	sb_release(&tmp);
	KCVE_ASSERT(kcve_is_sorted(s->files, s->nfiles, sizeof *s->files, cmp_str));
	return rc;
}

bool ck_spdx3_compiled(const struct ck_spdx3 *s, const char *path)
{
	return s->nfiles && bsearch(&path, s->files, s->nfiles, sizeof *s->files, cmp_str) != NULL;
}

int ck_spdx3_file_state(const struct ck_spdx3 *s, const char *path, const char **reason)
{
	const char *why = "not among the SBOM's compiled sources";
	int state = 0;
	size_t n = strlen(path);
	if (ck_spdx3_compiled(s, path)) {
		why = "among the SBOM's compiled sources";
		state = 1;
	} else if (s->debug_files && n > 2 && !strcmp(path + n - 2, ".h")) {
		/* the debug information names a header only when code or a type of it is used */
		why = "header not among the SBOM's compiled sources, which come from the debug "
		      "information of the built objects: a header compiled in that left nothing there "
		      "is not listed";
		state = -1;
	}
	if (reason)
		*reason = why;
	return state;
}

/* 12345 -> "12,345" */
static void thousands(size_t v, char *out, size_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%zu", v);
	size_t o = 0;
	for (int i = 0; i < len && o + 1 < n; i++) {
		if (i && (len - i) % 3 == 0 && o + 2 < n)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

void ck_spdx3_summary(const struct ck_spdx3 *s, char *out, size_t n)
{
	char f[32], c[32];
	thousands(s->nfiles, f, sizeof f);
	thousands(s->nconfig, c, sizeof c);
	char files[64], cfg[64];
	if (s->have_files)
		snprintf(files, sizeof files, "%s compiled file%s", f, s->nfiles == 1 ? "" : "s");
	else
		snprintf(files, sizeof files, "no compiled-file list");
	if (s->config)
		snprintf(cfg, sizeof cfg, "config %s symbol%s", c, s->nconfig == 1 ? "" : "s");
	else
		snprintf(cfg, sizeof cfg, "no config");
	snprintf(out, n, "SBOM: %s, %s, kernel %s", files, cfg, s->kversion ? s->kversion : "unknown");
}

void ck_spdx3_release(struct ck_spdx3 *s)
{
	struct sp3_state *st = s->st;
	if (st) {
		for (size_t i = 0; i < st->ndocs; i++) {
			json_decref(st->docs[i].root);
			free(st->docs[i].name);
			strmap_free(&st->docs[i].prefix, free);
		}
		free(st->docs);
		strmap_free(&st->elems, free);
		for (size_t i = 0; i < st->nanon; i++)
			free(st->anon[i]);
		free(st->anon);
		free(st);
	}
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->config);
	free(s->kversion);
	free(s->element);
	free(s->element_name);
	free(s->purl);
	free(s->cpe);
	memset(s, 0, sizeof *s);
}
