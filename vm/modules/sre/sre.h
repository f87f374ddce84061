/* The regex engine behind the _sre module: the layouts of Pattern, Match and
 * Scanner objects, and the matcher that runs the code re/_compiler.py emits
 * (CPython 3.11's opcodes, re/_constants.py). Private to sreengine.c,
 * srepattern.c, srematch.c and sremodule.c. */
#ifndef TMPY_SRE_H
#define TMPY_SRE_H

#include "objects/objects.h"

#define SRE_MAGIC 20220615
#define SRE_CODESIZE 4
#define SRE_MAXREPEAT 0xFFFFFFFFu
#define SRE_MAXGROUPS 1073741823   /* as CPython 3.11 on 64-bit */

/* Opcodes (re/_constants.py OPCODES, in order). */
enum {
    SRE_OP_FAILURE, SRE_OP_SUCCESS, SRE_OP_ANY, SRE_OP_ANY_ALL, SRE_OP_ASSERT, SRE_OP_ASSERT_NOT,
    SRE_OP_AT, SRE_OP_BRANCH, SRE_OP_CATEGORY, SRE_OP_CHARSET, SRE_OP_BIGCHARSET, SRE_OP_GROUPREF,
    SRE_OP_GROUPREF_EXISTS, SRE_OP_IN, SRE_OP_INFO, SRE_OP_JUMP, SRE_OP_LITERAL, SRE_OP_MARK,
    SRE_OP_MAX_UNTIL, SRE_OP_MIN_UNTIL, SRE_OP_NOT_LITERAL, SRE_OP_NEGATE, SRE_OP_RANGE, SRE_OP_REPEAT,
    SRE_OP_REPEAT_ONE, SRE_OP_SUBPATTERN, SRE_OP_MIN_REPEAT_ONE, SRE_OP_ATOMIC_GROUP,
    SRE_OP_POSSESSIVE_REPEAT, SRE_OP_POSSESSIVE_REPEAT_ONE,
    SRE_OP_GROUPREF_IGNORE, SRE_OP_IN_IGNORE, SRE_OP_LITERAL_IGNORE, SRE_OP_NOT_LITERAL_IGNORE,
    SRE_OP_GROUPREF_LOC_IGNORE, SRE_OP_IN_LOC_IGNORE, SRE_OP_LITERAL_LOC_IGNORE, SRE_OP_NOT_LITERAL_LOC_IGNORE,
    SRE_OP_GROUPREF_UNI_IGNORE, SRE_OP_IN_UNI_IGNORE, SRE_OP_LITERAL_UNI_IGNORE, SRE_OP_NOT_LITERAL_UNI_IGNORE,
    SRE_OP_RANGE_UNI_IGNORE,
    SRE_OP_COUNT
};
/* AT codes and category codes (ATCODES, CHCODES). */
enum {
    SRE_AT_BEGINNING, SRE_AT_BEGINNING_LINE, SRE_AT_BEGINNING_STRING, SRE_AT_BOUNDARY, SRE_AT_NON_BOUNDARY,
    SRE_AT_END, SRE_AT_END_LINE, SRE_AT_END_STRING, SRE_AT_LOC_BOUNDARY, SRE_AT_LOC_NON_BOUNDARY,
    SRE_AT_UNI_BOUNDARY, SRE_AT_UNI_NON_BOUNDARY, SRE_AT_COUNT
};
enum {
    SRE_CAT_DIGIT, SRE_CAT_NOT_DIGIT, SRE_CAT_SPACE, SRE_CAT_NOT_SPACE, SRE_CAT_WORD, SRE_CAT_NOT_WORD,
    SRE_CAT_LINEBREAK, SRE_CAT_NOT_LINEBREAK, SRE_CAT_LOC_WORD, SRE_CAT_LOC_NOT_WORD,
    SRE_CAT_UNI_DIGIT, SRE_CAT_UNI_NOT_DIGIT, SRE_CAT_UNI_SPACE, SRE_CAT_UNI_NOT_SPACE,
    SRE_CAT_UNI_WORD, SRE_CAT_UNI_NOT_WORD, SRE_CAT_UNI_LINEBREAK, SRE_CAT_UNI_NOT_LINEBREAK, SRE_CAT_COUNT
};
enum { SRE_INFO_PREFIX = 1, SRE_INFO_LITERAL = 2, SRE_INFO_CHARSET = 4 };
enum { SRE_FLAG_IGNORECASE = 2, SRE_FLAG_LOCALE = 4, SRE_FLAG_MULTILINE = 8, SRE_FLAG_DOTALL = 16,
       SRE_FLAG_UNICODE = 32, SRE_FLAG_VERBOSE = 64, SRE_FLAG_DEBUG = 128, SRE_FLAG_ASCII = 256 };

/* re.Pattern (TID_SRE_PATTERN): immutable once made, read without barriers.
 * code: RawObj of uint32 words, one FAILURE word past the end (a jump to
 * the end of the code reads it). */
VM_STRUCT(SrePatternObj) {
    tm_header h;
    Obj pattern;      /* str, bytes or None */
    Obj code;         /* RawObj */
    Obj groupindex;   /* dict name -> group number */
    Obj indexgroup;   /* tuple: group number -> name or None */
    int64_t flags;
    int64_t groups;   /* capturing groups */
    int64_t codelen;  /* words, without the sentinel */
    int64_t isbytes;  /* 1 bytes, 0 str, -1 pattern None (any subject) */
};
#define SREPAT(v) ((SrePatternObj *)(v))

/* re.Match (TID_SRE_MATCH): immutable, read without barriers. regs: RawObj
 * of int64 (start, end) pairs, group 0 first, -1 for a group that did not
 * take part. chars: the subject's characters as the engine saw them (a
 * RawObj of uint32 for a str that is not ASCII, a RawObj copy of a
 * bytearray or memoryview's bytes), or NULL: slices come from `string`. */
VM_STRUCT(SreMatchObj) {
    tm_header h;
    Obj string;
    Obj pattern;
    Obj regs;
    Obj chars;
    int64_t pos, endpos;
    int64_t lastindex;   /* -1: None */
    int64_t ngroups;     /* pairs in regs (groups + 1) */
};
#define SREMATCH(v) ((SreMatchObj *)(v))

/* The scanner (Pattern.scanner, finditer; TID_SRE_SCANNER): its position
 * moves, so it is read through the barrier. */
VM_STRUCT(SreScannerObj) {
    tm_header h;
    Obj pattern;
    Obj string;
    Obj chars;           /* as SreMatchObj.chars */
    int64_t pos, endpos;
    int64_t start_pos;   /* the pos argument (Match.pos) */
    int64_t must_advance;
    int64_t done;
};
#define SRESCANNER(v) ((SreScannerObj *)vm_rd(v))

extern TypeObj *T_sre_pattern, *T_sre_match, *T_sre_scanner;
void sre_init_types(void);   /* start-up (layouts.c) */
void sre_match_init_type(void);   /* srematch.c, from sre_init_types */
/* __copy__, __deepcopy__ (the object itself: Pattern and Match are
 * immutable) and __class_getitem__ of both (srepattern.c). */
Obj sre_copy(Obj *args, size_t nargs, Obj kwnames);
Obj sre_deepcopy(Obj *args, size_t nargs, Obj kwnames);
Obj sre_class_getitem(Obj *args, size_t nargs, Obj kwnames);

/* ---- a subject as the engine reads it ---- */
/* A subject string prepared for matching: `string` is what the user gave;
 * `chars` (or the string itself) holds the characters, 1 or 4 bytes each.
 * Both live in root slots of the caller (the engine re-reads them after
 * anything that may move objects). */
typedef struct SreSubject {
    Obj *string;         /* root slot: the user's object */
    Obj *chars;          /* root slot: RawObj of characters, or NULL slot content: read `string`'s data */
    int width;           /* 1 or 4 */
    bool isbytes;
    int64_t length;
} SreSubject;
/* Prepare `*s->string` (str or bytes-like) for matching; fills *s->chars.
 * pattern_isbytes: the pattern's kind (-1 any). 0, or -1 with TypeError. */
int sre_subject_init(SreSubject *s, int64_t pattern_isbytes);
/* The subject from a Match or Scanner's fields (string, chars). */
void sre_subject_from(SreSubject *s, Obj *string_slot, Obj *chars_slot);
/* The characters [start, end) as a str or bytes. */
Obj sre_subject_slice(SreSubject *s, int64_t start, int64_t end);

/* ---- the engine (sreengine.c) ---- */
typedef struct SreRepeat SreRepeat;
typedef struct SreChoice SreChoice;
typedef struct SreTrail SreTrail;
typedef struct SreFrame SreFrame;
typedef struct SreState {
    Obj *pattern;        /* root slot: the Pattern */
    SreSubject *subj;
    /* linear views, re-derived by sre_state_refresh() */
    const uint32_t *code;
    const unsigned char *s8;
    const uint32_t *s32;
    const uint32_t *startmap;   /* the pattern's start map (SRE_STARTMAP_WORDS) or NULL */
    int64_t start, end;  /* where this attempt starts; endpos */
    int64_t pos;         /* Match.pos (the search's first position) */
    bool match_all;      /* fullmatch */
    bool must_advance;   /* an empty match at `start` is refused (after an empty match) */
    int64_t ngroups;
    /* results */
    int64_t *marks;      /* 2 * ngroups, -1 unset; only marks[0..lastmark] are set */
    int64_t lastmark;
    int64_t lastindex;
    int64_t match_start, match_end;
    /* the backtracking machinery: C memory, grown on demand */
    SreChoice *cps; int64_t ncp, capcp;
    SreTrail *trail; int64_t ntrail, captrail;
    SreFrame *frames; int64_t nframes, capframes;
    SreRepeat *reps; int64_t nreps, capreps;
    int64_t *snaps; int64_t nsnap, capsnap;   /* marks saved by choice points */
    uint32_t steps;
    int64_t marks_small[2 * 10];   /* marks of a pattern of up to 9 groups: no malloc per call */
} SreState;
/* Set up for matching `subj` with `pattern` over [pos, endpos] (clamped as
 * CPython does). 0, or -1 with MemoryError. */
int sre_state_init(SreState *st, Obj *pattern, SreSubject *subj, int64_t pos, int64_t endpos);
void sre_state_fini(SreState *st);
void sre_state_refresh(SreState *st);
/* One attempt at st->start (match) or from st->start on (search): 1 found
 * (match_start, match_end, marks, lastindex), 0 not, -1 error set. */
int sre_match(SreState *st);
int sre_search(SreState *st);
/* Group g's span (0-based group, g >= 0) in the last success: false if
 * it did not take part. */
bool sre_state_span(SreState *st, int64_t g, int64_t *start, int64_t *end);
/* A Match object for the state's last success. */
Obj sre_match_new(SreState *st);
/* The start map, kept in the code's RawObj past its FAILURE sentinel: a
 * word (1: the map holds) and a 256-bit set of the characters below 256 a
 * match can start with (what search's first-character filter accepts),
 * so search skips a narrow subject's other characters by table lookup. */
#define SRE_STARTMAP_WORDS 9
/* Fill map (SRE_STARTMAP_WORDS words) for valid code; flags: the pattern's
 * (a LOCALE pattern's first characters depend on the locale: no map). */
void sre_start_map(const uint32_t *code, int64_t flags, uint32_t *map);
/* Checks code words for _sre.compile: true if the engine can run them. */
bool sre_code_valid(const uint32_t *code, int64_t n, int64_t groups);

/* Case helpers shared with _sre's functions. */
uint32_t sre_lower_ascii(uint32_t ch);
uint32_t sre_lower_unicode(uint32_t ch);
bool sre_iscased_ascii(uint32_t ch);
bool sre_iscased_unicode(uint32_t ch);

#endif
