/* tmpy bytecode: the contract between compile.c (which emits it) and
 * eval.c (which runs it).
 *
 * An instruction is one uint32_t word: opcode in the low 8 bits, argument in
 * the high 24 bits (no EXTENDED_ARG). Ops marked [cache] are followed by ONE
 * extra word: the index of their inline-cache entry (0 .. code->ncaches-1);
 * the eval loop skips it. Jump targets are absolute instruction-word indexes.
 * code->lines[i] is the source line of word i.
 *
 * Stack effects are written `before -- after`, top of stack rightmost.
 * "NULL" is an empty stack slot (C NULL), used by the call protocol.
 *
 * Frames: slots 0 .. nlocals+ncellvars+nfreevars-1 are "localsplus"
 * (parameters and locals, then cells created by this code, then free
 * variables copied from the function's closure), then the value stack. The
 * eval loop creates the cells at frame entry (a cell var that is also a
 * parameter starts with the argument: code->cell2arg) and copies the
 * closure; there are no MAKE_CELL / COPY_FREE_VARS ops.
 *
 * Exceptions use a block stack (like CPython 3.10):
 *   SETUP_FINALLY pushes a try block {handler, stack level}. When an
 *   exception is raised inside it: blocks are popped until a try block is
 *   found; the value stack is cut to the block's level; then the PREVIOUS
 *   handled exception (sys.exc_info(), None if none) and the exception are
 *   pushed (`prev exc`), an EXCEPT_HANDLER block is pushed at that level, the
 *   handled exception becomes exc, and execution jumps to the handler.
 *   If unwinding pops an EXCEPT_HANDLER block (an exception escaped from a
 *   handler), the handled exception is restored from the `prev` slot at the
 *   block's level and the stack cut to that level before unwinding further.
 *
 * Canonical sequences the compiler emits:
 *
 *   try: B  except E as n: H  except: H2  else: L  finally-less:
 *       SETUP_FINALLY h1
 *       B
 *       POP_BLOCK
 *       L
 *       JUMP end
 *   h1: (stack: prev exc)
 *       DUP_TOP; <E>; JUMP_IF_NOT_EXC_MATCH h2
 *       STORE n   (or POP_TOP if no name)
 *       [as-name cleanup: the handler body H is wrapped in SETUP_FINALLY so
 *        that n is deleted on every exit: n = None; del n  -- as CPython]
 *       H
 *       POP_EXCEPT      (pops prev, restores it as the handled exception; pops the EXCEPT_HANDLER block)
 *       JUMP end
 *   h2: POP_TOP; H2; POP_EXCEPT; JUMP end   (bare except)
 *       ... when no bare except: RERAISE   (stack `prev exc`: raises exc again)
 *   end:
 *
 *   try: B  finally: F
 *       SETUP_FINALLY h
 *       B
 *       POP_BLOCK
 *       F
 *       JUMP end
 *   h:  (stack: prev exc)
 *       F
 *       RERAISE
 *   end:
 *   return/break/continue inside B or a handler first unwind what they leave
 *   (POP_BLOCK + a copy of F; in a handler: POP_TOP exc if still on the
 *   stack, POP_EXCEPT; FOR loop iterators: POP_TOP; with: POP_BLOCK +
 *   CALL_EXIT_NONE), as CPython's compiler_unwind_fblock does.
 *
 *   with M as x: B
 *       <M>
 *       SETUP_WITH h        (mgr -- exit enter_result; try block level = just above `exit`)
 *       STORE x  (or POP_TOP)
 *       B
 *       POP_BLOCK
 *       CALL_EXIT_NONE      (exit -- )  exit(None, None, None), result dropped
 *       JUMP end
 *   h:  (stack: exit prev exc)
 *       WITH_EXCEPT_START   (exit prev exc -- exit prev exc res)   res = exit(type(exc), exc, exc.__traceback__)
 *       POP_JUMP_IF_TRUE s
 *       RERAISE
 *   s:  POP_TOP; POP_EXCEPT; POP_TOP; (exc, prev, exit)
 *   end:
 *
 *   try: B  except* E as n: H  ...  (PEP 654)
 *       SETUP_FINALLY h; B; POP_BLOCK; [else]; JUMP end
 *   h:  (prev exc)  DUP_TOP; BUILD_LIST 0; ROT_TWO     (prev orig raised rest)
 *       per clause: <E>; CHECK_EG_MATCH next; STORE n (or POP_TOP)
 *           SETUP_FINALLY r; H; POP_BLOCK; [n = None; del n]; JUMP next
 *       r:  [n = None; del n]; LIST_APPEND 3 (what H raised); POP_EXCEPT
 *       next:
 *       LIST_APPEND 1 (the unhandled rest); PREP_RERAISE_STAR   (prev exc|None)
 *       DUP_TOP; POP_JUMP_IF_NOT_NONE re; POP_TOP; POP_EXCEPT; JUMP end
 *   re: RERAISE
 *   end:
 *   return/break/continue cannot leave an except* clause (SyntaxError).
 *
 *   await E:  <E> GET_AWAITABLE 0, LOAD_CONST None, YIELD_FROM
 *   async for T in I: B  else: L
 *       <I> GET_AITER
 *   start: SETUP_FINALLY h; GET_ANEXT; <await>; POP_BLOCK
 *       STORE T; B; JUMP start
 *   h:  END_ASYNC_FOR       (aiter prev exc: StopAsyncIteration ends the loop)
 *       L
 *   async with M as x: B
 *       <M> BEFORE_ASYNC_WITH; GET_AWAITABLE 1 ...YIELD_FROM; SETUP_ASYNC_WITH h
 *       STORE x; B; POP_BLOCK
 *       CALL_EXIT_NONE 1; GET_AWAITABLE 2 ... YIELD_FROM; POP_TOP; JUMP end
 *   h:  WITH_EXCEPT_START; GET_AWAITABLE 2 ... YIELD_FROM; POP_JUMP_IF_TRUE s; RERAISE
 *   s:  POP_TOP; POP_EXCEPT; POP_TOP
 *   end:
 *   An async generator's `yield v` is ASYNC_GEN_WRAP, YIELD_VALUE. An async
 *   list/set/dict comprehension is a coroutine the builder awaits after CALL.
 *   Calls: `f(a, b)` is  <f> PUSH_NULL <a> <b> CALL 2
 *          `o.m(a)` is   <o> LOAD_METHOD m  <a> CALL 1
 *          `f(a, k=b)`:  <f> PUSH_NULL <a> <b> LOAD_CONST ('k',) CALL_KW 2
 *          `f(*t, **d)`: <f> PUSH_NULL <build a tuple> <build a dict> CALL_FUNCTION_EX 1
 *   Comprehensions / generator expressions: a nested code object with one
 *   parameter `.0` (the iterator): MAKE_FUNCTION, PUSH_NULL, <iterable>,
 *   GET_ITER, CALL 1.
 *   match S: case P if G: B  ... (PEP 634):
 *       <S>
 *       each case but the last:
 *       PUSH_NULL * n             one slot per name P captures (n may be 0)
 *       COPY n+1                  a copy of the subject to match
 *       <P>                       consumes the copy; a capture swaps its value into
 *                                 its slot (SWAP k; POP_TOP); a failed test jumps to
 *                                 fail_k, k = the values left above the slots
 *       STORE name1 .. STORE namen   (capture order; an or-pattern binds in its first
 *                                 alternative's order)
 *       <G: POP_JUMP_IF_FALSE next>
 *       POP_TOP                   (the subject)
 *       B
 *       JUMP end
 *   fail_k: POP_TOP (k times) ... POP_TOP (n times: the slots)
 *   next: the next case; the last one matches the subject itself (SWAP n+1
 *       instead of COPY n+1 when n > 0, no POP_TOP before B)
 *   end:
 *   A trailing `case _:` has no code of its own: the case before it is the
 *   last one. Patterns: value `subject == v` (COMPARE_OP, POP_JUMP_IF_FALSE);
 *   None/True/False `is`; sequence MATCH_SEQUENCE, a GET_LEN check,
 *   UNPACK_SEQUENCE / UNPACK_EX (with `*_`: COPY 1, index, BINARY_SUBSCR per
 *   item, the sequence is not iterated); mapping MATCH_MAPPING, GET_LEN >=,
 *   the keys in a tuple, MATCH_KEYS, UNPACK_SEQUENCE, then
 *   COPY_DICT_WITHOUT_KEYS for **rest; class: <cls> LOAD_CONST kwnames
 *   MATCH_CLASS n, COPY 1, POP_JUMP_IF_NONE, UNPACK_SEQUENCE; or: per
 *   alternative COPY 1 <alt> JUMP ok, with its own fail chain ending at the
 *   next alternative.
 *   Class statement: LOAD_BUILD_CLASS PUSH_NULL <MAKE_FUNCTION body> LOAD_CONST 'Name'
 *   <bases...> [LOAD_CONST kwnames] CALL/CALL_KW n. The body code has
 *   CO_CLASSBODY, uses LOAD_NAME/STORE_NAME (LOAD_CLASSDEREF for free vars),
 *   stores __module__ and __qualname__ first, and, if methods use super() or
 *   __class__, creates the __class__ cell and stores it as __classcell__
 *   before returning None.
 */
#ifndef TMPY_OPCODES_H
#define TMPY_OPCODES_H

#define OP_LIST(X) \
    X(NOP)                   /* -- */ \
    X(POP_TOP)               /* v -- */ \
    X(ROT_TWO)               /* a b -- b a */ \
    X(ROT_THREE)             /* a b c -- c a b */ \
    X(ROT_FOUR)              /* a b c d -- d a b c */ \
    X(DUP_TOP)               /* a -- a a */ \
    X(DUP_TOP_TWO)           /* a b -- a b a b */ \
    X(COPY)                  /* arg n>=1: ... x (n-1 items) -- ... x ... x   (push stack[-n]) */ \
    X(SWAP)                  /* arg n>=2: swap TOS and stack[-n] */ \
    X(PUSH_NULL)             /* -- NULL */ \
    X(LOAD_CONST)            /* arg: consts index.  -- v */ \
    X(LOAD_FAST)             /* arg: localsplus index. -- v  (UnboundLocalError if unset) */ \
    X(STORE_FAST)            /* v -- */ \
    X(DELETE_FAST)           /* -- */ \
    X(LOAD_DEREF)            /* arg: localsplus index of a cell/free var. -- cell contents (NameError/UnboundLocalError if empty) */ \
    X(STORE_DEREF)           /* v -- */ \
    X(DELETE_DEREF)          /* -- */ \
    X(LOAD_CLOSURE)          /* -- cell  (the cell object itself, for MAKE_FUNCTION closures) */ \
    X(LOAD_CLASSDEREF)       /* class body: locals dict first, then the cell. -- v */ \
    X(LOAD_GLOBAL)           /* [cache] arg: names index. -- v  (globals, then builtins; NameError) */ \
    X(STORE_GLOBAL)          /* v -- */ \
    X(DELETE_GLOBAL)         /* -- */ \
    X(LOAD_NAME)             /* arg: names index. locals dict, globals, builtins. -- v */ \
    X(STORE_NAME)            /* v -- */ \
    X(DELETE_NAME)           /* -- */ \
    X(LOAD_ATTR)             /* [cache] arg: names index. obj -- obj.name */ \
    X(STORE_ATTR)            /* [cache] v obj -- */ \
    X(DELETE_ATTR)           /* obj -- */ \
    X(LOAD_METHOD)           /* [cache] obj -- func obj  (plain function found on the type, not shadowed)  |  obj -- attr NULL */ \
    X(CALL)                  /* arg n: callable self_or_NULL a1..an -- result  (self non-NULL: called with (self, a1..an)) */ \
    X(CALL_KW)               /* arg n: callable self_or_NULL a1..an kwnames -- result  (last len(kwnames) of a1..an are keyword values) */ \
    X(CALL_FUNCTION_EX)      /* arg flags (1: kwargs dict present): callable self_or_NULL argstuple [kwdict] -- result */ \
    X(RETURN_VALUE)          /* v -- (returns v) */ \
    X(YIELD_VALUE)           /* v -- sent  (suspends the generator, yielding v) */ \
    X(GET_YIELD_FROM_ITER)   /* iterable -- iterator  (a generator stays itself) */ \
    X(YIELD_FROM)            /* receiver v -- result: sends v (None: next) to receiver; if it yields, this frame yields that value and runs YIELD_FROM again with the sent value on resume; on StopIteration pops receiver and pushes its value */ \
    X(JUMP)                  /* arg target (forward) */ \
    X(JUMP_BACKWARD)         /* arg target (a loop back-edge: a yield point) */ \
    X(POP_JUMP_IF_FALSE)     /* v -- */ \
    X(POP_JUMP_IF_TRUE)      /* v -- */ \
    X(JUMP_IF_FALSE_OR_POP)  /* v -- v (jumps) | v -- (falls through) */ \
    X(JUMP_IF_TRUE_OR_POP)   \
    X(POP_JUMP_IF_NONE)      /* v -- */ \
    X(POP_JUMP_IF_NOT_NONE)  /* v -- */ \
    X(GET_ITER)              /* iterable -- iterator */ \
    X(FOR_ITER)              /* arg target: it -- it next  |  it --  and jump when exhausted */ \
    X(COMPARE_OP)            /* arg CMP_*: a b -- r */ \
    X(IS_OP)                 /* arg invert: a b -- bool */ \
    X(CONTAINS_OP)           /* arg invert: item container -- bool */ \
    X(BINARY_OP)             /* arg NB_* or NB_INPLACE_BASE+NB_*: a b -- r */ \
    X(UNARY_OP)              /* arg UN_*: v -- r */ \
    X(BINARY_SUBSCR)         /* container key -- v */ \
    X(STORE_SUBSCR)          /* v container key -- */ \
    X(DELETE_SUBSCR)         /* container key -- */ \
    X(BUILD_SLICE)           /* arg 2|3: start stop [step] -- slice */ \
    X(BUILD_TUPLE)           /* arg n: v1..vn -- tuple */ \
    X(BUILD_LIST)            /* arg n */ \
    X(BUILD_SET)             /* arg n */ \
    X(BUILD_MAP)             /* arg n: k1 v1 .. kn vn -- dict */ \
    X(BUILD_CONST_KEY_MAP)   /* arg n: v1..vn keys_tuple -- dict */ \
    X(BUILD_STRING)          /* arg n: s1..sn -- s1+..+sn */ \
    X(LIST_APPEND)           /* arg i: list at stack[-i] after popping v.  v -- */ \
    X(SET_ADD)               /* arg i */ \
    X(MAP_ADD)               /* arg i: dict at stack[-i] after popping k v.  k v -- */ \
    X(LIST_EXTEND)           /* arg i: iterable -- (list at stack[-i] extended) */ \
    X(SET_UPDATE)            /* arg i */ \
    X(DICT_UPDATE)           /* arg i: mapping -- ({**a} displays) */ \
    X(DICT_MERGE)            /* arg i: mapping -- (f(**m): TypeError on duplicate keys "f() got multiple values for keyword argument 'k'", non-mapping, non-str keys) */ \
    X(LIST_TO_TUPLE)         /* list -- tuple */ \
    X(UNPACK_SEQUENCE)       /* arg n: seq -- vn .. v1 (v1 on top) */ \
    X(UNPACK_EX)             /* arg before | (after << 8): seq -- v_last .. list .. v1 */ \
    X(FORMAT_VALUE)          /* arg: (conv: 0 none, 1 !s, 2 !r, 3 !a) | 4 if a spec is on the stack.  v [spec] -- str */ \
    X(MAKE_FUNCTION)         /* arg flags 1 defaults, 2 kwdefaults, 4 annotations, 8 closure: [defaults_tuple] [kwdefaults_dict] [annotations_dict] [closure_tuple] code -- function */ \
    X(LOAD_BUILD_CLASS)      /* -- builtins.__build_class__ */ \
    X(IMPORT_NAME)           /* arg names index: level fromlist -- module */ \
    X(IMPORT_FROM)           /* arg names index: module -- module attr (ImportError "cannot import name") */ \
    X(IMPORT_STAR)           /* module -- (into the locals / globals) */ \
    X(RAISE_VARARGS)         /* arg 0: re-raise the handled exception; 1: exc --; 2: exc cause -- */ \
    X(SETUP_FINALLY)         /* arg handler target: push a try block */ \
    X(SETUP_WITH)            /* arg handler target: mgr -- exit enter_result (try block just above exit) */ \
    X(POP_BLOCK)             /* pop the innermost block */ \
    X(POP_EXCEPT)            /* prev -- : pop the EXCEPT_HANDLER block, restore prev as the handled exception */ \
    X(RERAISE)               /* exc -- : raise exc again, traceback kept */ \
    X(JUMP_IF_NOT_EXC_MATCH) /* arg target: exc type -- (jump if not isinstance(exc, type/tuple)) */ \
    X(CALL_EXIT_NONE)        /* arg 0: exit -- : exit(None, None, None), result dropped; arg 1: exit -- result (async with) */ \
    X(WITH_EXCEPT_START)     /* exit prev exc -- exit prev exc res */ \
    X(LOAD_ASSERTION_ERROR)  /* -- AssertionError */ \
    X(GET_LEN)               /* obj -- obj len(obj)  (match: the length checks of sequence and mapping patterns) */ \
    X(MATCH_SEQUENCE)        /* subject -- subject bool: type(subject) has TPF_SEQUENCE (list, tuple, range, collections.deque, their subclasses; never str, bytes, bytearray) */ \
    X(MATCH_MAPPING)         /* subject -- subject bool: type(subject) has TPF_MAPPING (dict and its subclasses, collections.ChainMap) */ \
    X(MATCH_KEYS)            /* subject keys -- subject keys values|None: keys a tuple; values the tuple of subject.get(k, sentinel) (an exact dict: looked up directly), None at the first key missing; ValueError "mapping pattern checks duplicate key (k)" */ \
    X(MATCH_CLASS)           /* arg nargs: subject cls kwnames -- attrs|None: isinstance(subject, cls) (TypeError "called match pattern must be a type"), then the tuple of nargs positional attributes (named by cls.__match_args__, or the subject itself for TPF_MATCH_SELF types) and of the kwnames attributes; None if not an instance or an attribute is missing */ \
    X(COPY_DICT_WITHOUT_KEYS) /* subject keys -- rest: rest = {}; rest.update(subject) (as DICT_UPDATE); del rest[k] for each key */ \
    X(GET_AWAITABLE)         /* arg where (0 await, 1 __aenter__ result, 2 __aexit__ result: the messages): v -- iterator to delegate to (a coroutine, an iterable-coroutine generator, or __await__()'s iterator) */ \
    X(GET_AITER)             /* obj -- type(obj).__aiter__(obj)  (TypeError unless the result has __anext__) */ \
    X(GET_ANEXT)             /* aiter -- aiter awaitable  (the awaitable of __anext__()) */ \
    X(END_ASYNC_FOR)         /* aiter prev exc -- : the handler of an async for's next step; StopAsyncIteration ends the loop (pops the EXCEPT_HANDLER block, restores prev), anything else is raised again */ \
    X(BEFORE_ASYNC_WITH)     /* mgr -- exit awaitable  (bound __aexit__, and __aenter__()) */ \
    X(SETUP_ASYNC_WITH)      /* arg handler target: exit res -- exit res, with a try block just above exit */ \
    X(CHECK_EG_MATCH)        /* arg target: rest type -- rest' match  (except*: the part of rest that type matches, a naked exception wrapped in a group; it becomes the handled exception)  |  rest type -- rest, and jump when nothing matches. TypeError for a group type */ \
    X(PREP_RERAISE_STAR)     /* orig raised_list -- exc|None: what the except* clauses leave to raise (re-raised parts in orig's shape, new ones in a new group) */ \
    X(SETUP_ANNOTATIONS)     /* -- : a module or class body with annotations: __annotations__ = {} in the locals mapping unless there */ \
    X(ASYNC_GEN_WRAP)        /* v -- wrapped v  (an async generator's yield: asend() tells it from a value an await passes through) */ \
    X(OP_COUNT_)

enum {
#define OP_ENUM(name) OP_##name,
    OP_LIST(OP_ENUM)
#undef OP_ENUM
};

#define INSTR(op, arg) ((uint32_t)(op) | ((uint32_t)(arg) << 8))
#define INSTR_OP(w) ((w) & 0xffu)
#define INSTR_ARG(w) ((w) >> 8)
#define INSTR_ARG_MAX 0xffffffu

/* Ops followed by a cache-index word. */
#define OP_HAS_CACHE(op) ((op) == OP_LOAD_GLOBAL || (op) == OP_LOAD_ATTR || \
                          (op) == OP_STORE_ATTR || (op) == OP_LOAD_METHOD)
/* Bytes per inline-cache entry in code->cache. */
#define CACHE_ENTRY_SIZE 32

extern const char *const op_names[];   /* compile.c: for disassembly / debugging */

#endif
