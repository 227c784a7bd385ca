/* words.c -- lists of known words: where a word stands in one, the
 * nearest one to a typo, and a list joined for a message. */
#include "config_priv.h"

#include <ctype.h>
#include <string.h>

/* Words compared by edit distance are shorter than this; a longer one is
 * as far from every word as a word can be. */
#define EDIT_MAX_LEN 40u

int sc_cfg_key_index(const char *key, const char *const *table)
{
	for (int i = 0; table[i]; i++)
		if (strcmp(table[i], key) == 0)
			return i;
	return -1;
}

bool sc_cfg_key_in(const char *key, const char *const *table)
{
	return sc_cfg_key_index(key, table) >= 0;
}

const char *sc_cfg_join(char *buf, size_t len, const char *const *words)
{
	buf[0] = '\0';
	for (const char *const *p = words; *p; p++) {
		strncat(buf, p == words ? "" : ", ", len - strlen(buf) - 1);
		strncat(buf, *p, len - strlen(buf) - 1);
	}
	return buf;
}

/* Optimal string alignment distance, ignoring case. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[EDIT_MAX_LEN][EDIT_MAX_LEN];

	if (la >= EDIT_MAX_LEN || lb >= EDIT_MAX_LEN)
		return EDIT_MAX_LEN;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *sc_cfg_nearest(const char *word, const char *const *known, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	for (size_t i = 0; i < n && known[i]; i++) {
		size_t dist = edit_distance(word, known[i]);
		size_t limit = strlen(known[i]) <= 3 ? 1 : 2;

		if (dist <= limit && dist < best_d) {
			best = known[i];
			best_d = dist;
		}
	}
	return best;
}
