/* Corpus check over a real vulns tree (argv[1]; the kernel CNA's published records):
 *  1. every .json record (published and rejected) is read back by kcve's reader;
 *  2. for every published CVE whose .dyad, .sha1 and .json exist, the record is rendered from
 *     the .dyad pairs (plus .reference, .cvss and the title, description and files the
 *     record itself carries, since the commits are not available here) and compared byte
 *     for byte with the CNA's .json.
 *     The .mbox of the CVE is rendered too (its untruncated description, generator and sender
 *     come from the .mbox itself) and compared byte for byte.
 * Prints counts; exits 1 if a record cannot be read, if any rendered record differs, or if
 * fewer than argv[2] records were compared. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "history/dyad_text.h"
#include "record/cvss_file.h"
#include "record/reader.h"
#include "record/render.h"

static size_t nread, nbad, ncompared, nsame, nskipped, nmbox, nmbox_same;
static int verbose;

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static void compare_render(const char *base, const struct record_json *r, const char *uuid,
			   const char *json_text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s.dyad", base);
	char *dyad = slurp(path);
	snprintf(path, sizeof(path), "%s.sha1", base);
	char *sha1 = slurp(path);
	snprintf(path, sizeof(path), "%s.mbox", base);
	char *mbox = slurp(path);
	char *full_desc = NULL;
	struct kcve_identity from = {{0}, {0}};
	char gen[128] = "";
	/* the mbox carries the untruncated description, the generator and the sender */
	if (mbox) {
		const char *d = strstr(mbox, "\nDescription\n===========\n\n");
		const char *e = d ? strstr(d, "\n\nThe Linux kernel CVE team has assigned") : NULL;
		const char *l2 = strchr(mbox, '\n');
		if (d && e && l2 && sscanf(mbox, "From %127s ", gen) == 1 &&
		    sscanf(l2 + 1, "From: %255[^<]<%255[^>]>", from.name, from.email) == 2) {
			d += strlen("\nDescription\n===========\n\n");
			full_desc = xmalloc((size_t)(e - d) + 2);
			memcpy(full_desc, d, (size_t)(e - d));
			strcpy(full_desc + (e - d), "\n");
			size_t nl = strlen(from.name);
			if (nl && from.name[nl - 1] == ' ')
				from.name[nl - 1] = '\0';
		}
	}
	if (!dyad || !sha1 || !r->description || r->nproducts < 1 ||
	    (strstr(r->description, "---truncated---") && !full_desc)) {
		nskipped++;
		goto out;
	}
	struct dyad_list pairs;
	dyad_list_init(&pairs);
	if (dyad_parse(dyad, &pairs) != 0) {
		nskipped++;
		dyad_list_release(&pairs);
		goto out;
	}
	char main_sha[41] = "";
	sscanf(sha1, " %40s", main_sha);
	struct url_list refs = {0};
	snprintf(path, sizeof(path), "%s.reference", base);
	char *reftext = slurp(path);
	for (char *line = reftext ? strtok(reftext, "\n") : NULL; line; line = strtok(NULL, "\n")) {
		while (*line == ' ' || *line == '\t')
			line++;
		size_t n = strlen(line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n)
			url_list_add(&refs, line);
	}
	free(reftext);
	struct cvss_file cvss = {0};
	struct kcve_err err = {0};
	snprintf(path, sizeof(path), "%s.cvss", base);
	bool have_cvss = path_exists(path) && cvss_file_read(path, &cvss, &err) == 0;
	struct record_model m = {
		.cve = r->cve_id,
		.main_sha = main_sha,
		.subject = r->title ? r->title : "",
		.description = full_desc ? full_desc : r->description,
		.pairs = &pairs,
		.files = (const char *const *)r->products[0].files,
		.nfiles = r->products[0].nfiles,
		.refs = (const char *const *)refs.v,
		.nrefs = refs.n,
		.cvss = have_cvss ? &cvss : NULL,
		.org_uuid = uuid,
		.generator = r->generator,
		.from = &from,
	};
	struct strbuf out = STRBUF_INIT;
	record_render_json(&m, &out);
	ncompared++;
	if (strcmp(out.buf, json_text) == 0)
		nsame++;
	else if (verbose)
		printf("differs: %s.json\n", base);
	if (full_desc) {
		sb_reset(&out);
		m.generator = gen;
		record_render_mbox(&m, &out);
		nmbox++;
		if (strcmp(out.buf, mbox) == 0)
			nmbox_same++;
		else if (verbose)
			printf("differs: %s.mbox\n", base);
	}
	sb_release(&out);
	cvss_file_release(&cvss);
	url_list_release(&refs);
	dyad_list_release(&pairs);
out:
	free(mbox);
	free(full_desc);
	free(dyad);
	free(sha1);
}

static void walk(const char *dir, const char *uuid, bool published)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = path_join(dir, e->d_name);
		size_t n = strlen(e->d_name);
		if (is_dir(p)) {
			walk(p, uuid, published);
		} else if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0 &&
			   strncmp(e->d_name, "CVE-", 4) == 0 && strstr(e->d_name, "schema") == NULL) {
			struct record_json r;
			struct kcve_err err = {0};
			nread++;
			char *text = slurp(p);
			if (!text || record_json_parse(text, strlen(text), &r, &err)) {
				nbad++;
				printf("unreadable: %s: %s\n", p, err.msg);
			} else {
				if (published) {
					p[strlen(p) - 5] = '\0';
					compare_render(p, &r, uuid, text);
				}
				record_json_release(&r);
			}
			free(text);
		}
		free(p);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: corpus VULNS_TREE MIN_COMPARED [-v]\n");
		return 2;
	}
	verbose = argc > 3;
	char *up = path_join(argv[1], "scripts/linux.uuid");
	char *uuid = slurp(up);
	if (!uuid) {
		fprintf(stderr, "corpus: cannot read %s\n", up);
		return 2;
	}
	uuid[strcspn(uuid, "\n")] = '\0';
	char *pub = path_join(argv[1], "cve/published");
	char *rej = path_join(argv[1], "cve/rejected");
	walk(pub, uuid, true);
	walk(rej, uuid, false);
	size_t min = strtoul(argv[2], NULL, 10);
	printf("records read: %zu, unreadable: %zu\n", nread, nbad);
	printf("json rendered from .dyad: %zu, byte-identical: %zu, skipped (no dyad/mbox): %zu\n",
	       ncompared, nsame, nskipped);
	printf("mbox rendered: %zu, byte-identical: %zu\n", nmbox, nmbox_same);
	free(up);
	free(uuid);
	free(pub);
	free(rej);
	return (nbad || nread == 0 || ncompared < min || nsame != ncompared ||
		nmbox_same != nmbox || nmbox < min) ? 1 : 0;
}
