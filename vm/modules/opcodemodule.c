/* The _opcode module: stack_effect(opcode, oparg=None, *, jump=None), the
 * net change of the value stack of CPython 3.11's instructions, which
 * CPython's opcode and dis modules offer as dis.stack_effect. The numbers
 * are CPython 3.11's opcode numbers (opcode.opmap), not tmpy's own
 * instruction set: dis works on CPython's. */
#include "eval.h"
#include "modules.h"
#include "objects/numbers.h"
#include "objects/objects.h"

#define HAVE_ARGUMENT 90
#define INVALID 1000000

/* jump: 1 taken, 0 not taken */
static int effect(int op, int o, int jump)
{
    switch (op) {
    case 0: /* CACHE */
        return 0;
    case 1: /* POP_TOP */
        return -1;
    case 2: /* PUSH_NULL */
        return 1;
    case 9: /* NOP */
        return 0;
    case 10: /* UNARY_POSITIVE */
        return 0;
    case 11: /* UNARY_NEGATIVE */
        return 0;
    case 12: /* UNARY_NOT */
        return 0;
    case 15: /* UNARY_INVERT */
        return 0;
    case 25: /* BINARY_SUBSCR */
        return -1;
    case 30: /* GET_LEN */
        return 1;
    case 31: /* MATCH_MAPPING */
        return 1;
    case 32: /* MATCH_SEQUENCE */
        return 1;
    case 33: /* MATCH_KEYS */
        return 1;
    case 35: /* PUSH_EXC_INFO */
        return 1;
    case 36: /* CHECK_EXC_MATCH */
        return 0;
    case 37: /* CHECK_EG_MATCH */
        return 0;
    case 49: /* WITH_EXCEPT_START */
        return 1;
    case 50: /* GET_AITER */
        return 0;
    case 51: /* GET_ANEXT */
        return 1;
    case 52: /* BEFORE_ASYNC_WITH */
        return 1;
    case 53: /* BEFORE_WITH */
        return 1;
    case 54: /* END_ASYNC_FOR */
        return -2;
    case 60: /* STORE_SUBSCR */
        return -3;
    case 61: /* DELETE_SUBSCR */
        return -2;
    case 68: /* GET_ITER */
        return 0;
    case 69: /* GET_YIELD_FROM_ITER */
        return 0;
    case 70: /* PRINT_EXPR */
        return -1;
    case 71: /* LOAD_BUILD_CLASS */
        return 1;
    case 74: /* LOAD_ASSERTION_ERROR */
        return 1;
    case 75: /* RETURN_GENERATOR */
        return 0;
    case 82: /* LIST_TO_TUPLE */
        return 0;
    case 83: /* RETURN_VALUE */
        return -1;
    case 84: /* IMPORT_STAR */
        return -1;
    case 85: /* SETUP_ANNOTATIONS */
        return 0;
    case 86: /* YIELD_VALUE */
        return 0;
    case 87: /* ASYNC_GEN_WRAP */
        return 0;
    case 88: /* PREP_RERAISE_STAR */
        return -1;
    case 89: /* POP_EXCEPT */
        return -1;
    case 90: /* STORE_NAME */
        return -1;
    case 91: /* DELETE_NAME */
        return 0;
    case 92: /* UNPACK_SEQUENCE */
        return o-1;
    case 93: /* FOR_ITER */
        return jump ? -1 : 1;
    case 94: /* UNPACK_EX */
        return (o&0xff)+(o>>8);
    case 95: /* STORE_ATTR */
        return -2;
    case 96: /* DELETE_ATTR */
        return -1;
    case 97: /* STORE_GLOBAL */
        return -1;
    case 98: /* DELETE_GLOBAL */
        return 0;
    case 99: /* SWAP */
        return 0;
    case 100: /* LOAD_CONST */
        return 1;
    case 101: /* LOAD_NAME */
        return 1;
    case 102: /* BUILD_TUPLE */
        return 1-o;
    case 103: /* BUILD_LIST */
        return 1-o;
    case 104: /* BUILD_SET */
        return 1-o;
    case 105: /* BUILD_MAP */
        return 1-2*o;
    case 106: /* LOAD_ATTR */
        return 0;
    case 107: /* COMPARE_OP */
        return -1;
    case 108: /* IMPORT_NAME */
        return -1;
    case 109: /* IMPORT_FROM */
        return 1;
    case 110: /* JUMP_FORWARD */
        return 0;
    case 111: /* JUMP_IF_FALSE_OR_POP */
        return jump ? 0 : -1;
    case 112: /* JUMP_IF_TRUE_OR_POP */
        return jump ? 0 : -1;
    case 114: /* POP_JUMP_FORWARD_IF_FALSE */
        return -1;
    case 115: /* POP_JUMP_FORWARD_IF_TRUE */
        return -1;
    case 116: /* LOAD_GLOBAL */
        return (o&1)+1;
    case 117: /* IS_OP */
        return -1;
    case 118: /* CONTAINS_OP */
        return -1;
    case 119: /* RERAISE */
        return -1;
    case 120: /* COPY */
        return 1;
    case 122: /* BINARY_OP */
        return -1;
    case 123: /* SEND */
        return jump ? -1 : 0;
    case 124: /* LOAD_FAST */
        return 1;
    case 125: /* STORE_FAST */
        return -1;
    case 126: /* DELETE_FAST */
        return 0;
    case 128: /* POP_JUMP_FORWARD_IF_NOT_NONE */
        return -1;
    case 129: /* POP_JUMP_FORWARD_IF_NONE */
        return -1;
    case 130: /* RAISE_VARARGS */
        return -o;
    case 131: /* GET_AWAITABLE */
        return 0;
    case 132: /* MAKE_FUNCTION */
        return -((o&1)!=0)-((o&2)!=0)-((o&4)!=0)-((o&8)!=0);
    case 133: /* BUILD_SLICE */
        return (o == 3 ? -2 : -1);
    case 134: /* JUMP_BACKWARD_NO_INTERRUPT */
        return 0;
    case 135: /* MAKE_CELL */
        return 0;
    case 136: /* LOAD_CLOSURE */
        return 1;
    case 137: /* LOAD_DEREF */
        return 1;
    case 138: /* STORE_DEREF */
        return -1;
    case 139: /* DELETE_DEREF */
        return 0;
    case 140: /* JUMP_BACKWARD */
        return 0;
    case 142: /* CALL_FUNCTION_EX */
        return -2-((o&1)!=0);
    case 144: /* EXTENDED_ARG */
        return 0;
    case 145: /* LIST_APPEND */
        return -1;
    case 146: /* SET_ADD */
        return -1;
    case 147: /* MAP_ADD */
        return -2;
    case 148: /* LOAD_CLASSDEREF */
        return 1;
    case 149: /* COPY_FREE_VARS */
        return 0;
    case 151: /* RESUME */
        return 0;
    case 152: /* MATCH_CLASS */
        return -2;
    case 155: /* FORMAT_VALUE */
        return ((o & 4) == 4 ? -1 : 0);
    case 156: /* BUILD_CONST_KEY_MAP */
        return -o;
    case 157: /* BUILD_STRING */
        return 1-o;
    case 160: /* LOAD_METHOD */
        return 1;
    case 162: /* LIST_EXTEND */
        return -1;
    case 163: /* SET_UPDATE */
        return -1;
    case 164: /* DICT_MERGE */
        return -1;
    case 165: /* DICT_UPDATE */
        return -1;
    case 166: /* PRECALL */
        return -o;
    case 171: /* CALL */
        return -1;
    case 172: /* KW_NAMES */
        return 0;
    case 173: /* POP_JUMP_BACKWARD_IF_NOT_NONE */
        return -1;
    case 174: /* POP_JUMP_BACKWARD_IF_NONE */
        return -1;
    case 175: /* POP_JUMP_BACKWARD_IF_FALSE */
        return -1;
    case 176: /* POP_JUMP_BACKWARD_IF_TRUE */
        return -1;
    default:
        return INVALID;
    }
}

static Obj opcode_stack_effect(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"opcode", "oparg", "jump", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int64_t op, oparg = 0;
    if (vm_parse_args("stack_effect", args, nargs, kwnames, names, 1, 2, a) < 0 || vm_index_i64(a[0], &op) < 0)
        goto out;
    bool given = a[1] && !IS_NONE(a[1]);
    if (op >= HAVE_ARGUMENT) {
        if (!given) {
            err_set(E_ValueError, "stack_effect: opcode requires oparg but oparg was not specified");
            goto out;
        }
        if (vm_index_i64(a[1], &oparg) < 0)
            goto out;
    } else if (given) {
        err_set(E_ValueError, "stack_effect: opcode does not permit oparg but oparg was specified");
        goto out;
    }
    int jump = -1;   /* None: the larger of the two */
    if (a[2] && !IS_NONE(a[2])) {
        if (a[2] == g_True)
            jump = 1;
        else if (a[2] == g_False)
            jump = 0;
        else {
            err_set(E_ValueError, "stack_effect: jump must be False, True or None");
            goto out;
        }
    }
    if (op < 0 || op > 255 || oparg < -2147483648LL || oparg > 2147483647LL) {
        err_set(E_ValueError, "invalid opcode or oparg");
        goto out;
    }
    int e;
    if (jump < 0) {
        int n = effect((int)op, (int)oparg, 0), j = effect((int)op, (int)oparg, 1);
        e = n == INVALID || j == INVALID ? INVALID : n > j ? n : j;
    } else {
        e = effect((int)op, (int)oparg, jump);
    }
    if (e == INVALID) {
        err_set(E_ValueError, "invalid opcode or oparg");
        goto out;
    }
    res = MAKE_SMALLINT(e);
out:
    vm_unroots(a);
    return res;
}

static const MethodDef opcode_functions[] = {
    {"stack_effect", opcode_stack_effect, METH_KW, "Compute the stack effect of the opcode."},
    {NULL, NULL, 0, NULL},
};

Obj opcode_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_opcode");
    if (r[0])
        module_add_functions(r[0], opcode_functions);   /* may move the module: read it back from its root */
    Obj m = r[0];
    vm_unroots(r);
    return m;
}
