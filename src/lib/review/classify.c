#include "review/classify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

#define MAX_REASONS 5
#define MIN_REASON_WEIGHT 0.05

void classify_describe(const char *f, struct strbuf *out)
{
	static const struct {
		const char *kind, *text;
	} kinds[] = {
		{"ww:", "subject words"}, {"w:", "subject word"}, {"f:", "subject starts with"},
		{"pp:", "subsystem"},     {"p:", "subsystem"},    {"b:", "body word"},
		{"dd:", "touches"},       {"d:", "touches"},      {"k:", "paths:"},
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		size_t n = strlen(kinds[i].kind);
		if (strncmp(f, kinds[i].kind, n) != 0)
			continue;
		const char *v = f + n;
		if (kinds[i].kind[0] == 'k') {
			sb_addf(out, "%s %s", kinds[i].text, v);
		} else if (kinds[i].kind[0] == 'd') {
			if (strcmp(v, "/") == 0)
				sb_addf(out, "%s top-level files", kinds[i].text);
			else
				sb_addf(out, "%s %s/", kinds[i].text, v);
		} else {
			sb_addf(out, "%s '", kinds[i].text);
			for (; *v; v++)
				sb_addc(out, kinds[i].kind[0] == 'w' && kinds[i].kind[1] == 'w' && *v == '+'
						      ? ' ' : *v);
			sb_addc(out, '\'');
		}
		return;
	}
	sb_adds(out, f);
}

static int cmp_hit(const void *a, const void *b)
{
	const struct classify_hit *x = a, *y = b;
	double ax = fabs(x->weight), ay = fabs(y->weight);
	if (ax != ay)
		return ax < ay ? 1 : -1;
	return strcmp(x->feature, y->feature);
}

void classify_commit(const struct review_model *m, double threshold,
		     const struct classify_input *in, struct classify_result *out)
{
	memset(out, 0, sizeof(*out));
	sb_init(&out->reasons);
	if (in->nparents >= 2) {
		sb_adds(&out->reasons, "merge commit");
		return;
	}
	const char *msg = in->message ? in->message : "";
	size_t len = in->message_len ? in->message_len : strlen(msg);
	struct review_features f;
	review_features_extract(msg, len, in->paths, in->npaths, &f);
	/* the trainer's order: bias, then the matched features in sorted order */
	double z = m->bias;
	out->hits = xcalloc(f.n ? f.n : 1, sizeof(*out->hits));
	for (size_t i = 0; i < f.n; i++) {
		bool found;
		double w = review_model_weight(m, f.v[i], &found);
		if (!found)
			continue;
		z += w;
		out->hits[out->nhits].feature = f.v[i];
		out->hits[out->nhits++].weight = w;
		f.v[i] = NULL;
	}
	review_features_release(&f);
	out->logit = z;
	out->score = review_sigmoid(z);
	out->candidate = out->score >= (threshold > 0 ? threshold : m->threshold);
	if (out->nhits > 1)
		qsort(out->hits, out->nhits, sizeof(*out->hits), cmp_hit);
	for (size_t i = 0; i < out->nhits && i < MAX_REASONS; i++) {
		if (fabs(out->hits[i].weight) < MIN_REASON_WEIGHT)
			break;
		if (i)
			sb_adds(&out->reasons, "; ");
		sb_addf(&out->reasons, "%+.2f ", out->hits[i].weight);
		classify_describe(out->hits[i].feature, &out->reasons);
	}
	if (!out->reasons.len)
		sb_adds(&out->reasons, "no weighty feature");
}

void classify_result_release(struct classify_result *r)
{
	for (size_t i = 0; i < r->nhits; i++)
		free(r->hits[i].feature);
	free(r->hits);
	r->hits = NULL;
	r->nhits = 0;
	sb_release(&r->reasons);
}

static bool is_word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

size_t classify_weighty_word_at(const struct review_model *m, const char *s,
				const char *line_start, double min, int *sign)
{
	if ((s > line_start && is_word_char((unsigned char)s[-1])) || !is_word_char((unsigned char)*s))
		return 0;
	size_t n = 0;
	while (is_word_char((unsigned char)s[n]))
		n++;
	if (n > 40)
		return 0;
	char name[48] = "w:";
	for (size_t i = 0; i < n; i++)
		name[2 + i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	name[2 + n] = '\0';
	double w = review_model_weight(m, name, NULL);
	if (w >= min) {
		*sign = 1;
		return n;
	}
	if (w <= -min) {
		*sign = -1;
		return n;
	}
	return 0;
}
