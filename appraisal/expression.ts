// Rule expressions: a small, typed language parsed by jsep and turned into closures. No eval, no
// `new Function`: only the names and functions a scope lists can be reached, and every name, field,
// function and literal is checked when a rule file loads, so a typo fails at load, not mid-game.

import jsep from 'jsep';

/** A text value names something; literals compared with it are checked (and normalized) against it. */
export interface TextDomain {
  name: string;
  /** The literal as the domain writes it, or null when it is not one. */
  check: (literal: string) => string | null;
  /** What a valid literal looks like, for messages. */
  hint: string;
}

export type ValueType = { kind: 'number' } | { kind: 'boolean' } | { kind: 'text'; domain: TextDomain };
export type Value = number | boolean | string;
export type Env = Readonly<Record<string, unknown>>;

export const NUMBER: ValueType = { kind: 'number' };
export const BOOLEAN: ValueType = { kind: 'boolean' };
export const text = (domain: TextDomain): ValueType => ({ kind: 'text', domain });

/** A name with fields (`before.expectedPoints`). */
export interface RecordType {
  kind: 'record';
  fields: Readonly<Record<string, ValueType>>;
}

export interface FunctionSpec {
  params: readonly ValueType[];
  /** Further arguments of the last parameter's type (min, max). */
  variadic?: boolean;
  returns: ValueType;
  /** Reads the event too (role, isTrump): never folded into a constant. */
  readsEvent?: boolean;
  impl: (env: Env, ...args: never[]) => Value;
}

export interface Scope {
  variables: ReadonlyMap<string, ValueType | RecordType>;
  functions: ReadonlyMap<string, FunctionSpec>;
}

interface Compiled {
  type: ValueType;
  evaluate: (env: Env) => Value;
  /** Set when the expression does not depend on the event. */
  constant?: Value;
}

/** A mistake in an expression; the message says what and where, in the author's terms. */
export class ExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpressionError';
  }
}

const describe = (t: ValueType): string => (t.kind === 'text' ? t.domain.name : t.kind);

/** Parses and checks `source` against `scope`; `expected` is the type the place needs. */
export function compileExpression(source: string, scope: Scope, expected?: ValueType['kind']): Compiled {
  let ast: jsep.Expression;
  try {
    ast = jsep(source);
  } catch (e) {
    throw new ExpressionError(`cannot read ${JSON.stringify(source)}: ${(e as Error).message}`);
  }
  const compiled = compileNode(ast, scope);
  if (expected && compiled.type.kind !== expected) {
    throw new ExpressionError(`${JSON.stringify(source)} is a ${describe(compiled.type)}, expected a ${expected}`);
  }
  return compiled;
}

const constant = (value: Value, type: ValueType): Compiled => ({ type, evaluate: () => value, constant: value });

/** Folds a node whose operands are all constant. */
function fold(type: ValueType, evaluate: (env: Env) => Value, parts: readonly Compiled[]): Compiled {
  if (parts.every((p) => p.constant !== undefined)) return constant(evaluate({}), type);
  return { type, evaluate };
}

function compileNode(node: jsep.Expression, scope: Scope): Compiled {
  switch (node.type) {
    case 'Literal': {
      const v = (node as jsep.Literal).value;
      if (typeof v === 'number') return constant(v, NUMBER);
      if (typeof v === 'boolean') return constant(v, BOOLEAN);
      if (typeof v === 'string') return { type: { kind: 'text', domain: FREE_TEXT }, evaluate: () => v, constant: v };
      throw new ExpressionError(`${String(v)} is not a value here (use numbers, true, false or 'quoted text')`);
    }
    case 'Identifier':
      return compileName((node as jsep.Identifier).name, scope);
    case 'MemberExpression':
      return compileMember(node as jsep.MemberExpression, scope);
    case 'UnaryExpression':
      return compileUnary(node as jsep.UnaryExpression, scope);
    case 'BinaryExpression':
      return compileBinary(node as jsep.BinaryExpression, scope);
    case 'ConditionalExpression':
      return compileConditional(node as jsep.ConditionalExpression, scope);
    case 'CallExpression':
      return compileCall(node as jsep.CallExpression, scope);
    case 'Compound':
      throw new ExpressionError('one expression only (no commas or semicolons between expressions)');
    case 'ArrayExpression':
      throw new ExpressionError('lists are not supported in expressions');
    case 'ThisExpression':
      throw new ExpressionError('"this" means nothing here');
    default:
      throw new ExpressionError(`unsupported syntax (${node.type})`);
  }
}

const knownNames = (scope: Scope): string => [...scope.variables.keys()].sort().join(', ');

function compileName(name: string, scope: Scope): Compiled {
  const t = scope.variables.get(name);
  if (!t) {
    const fn = scope.functions.has(name) ? `; ${name}(...) is a function` : '';
    throw new ExpressionError(`unknown name "${name}" (known here: ${knownNames(scope)}${fn})`);
  }
  if (t.kind === 'record')
    throw new ExpressionError(
      `"${name}" has fields: use ${Object.keys(t.fields)
        .map((f) => `${name}.${f}`)
        .join(' or ')}`,
    );
  return { type: t, evaluate: (env) => env[name] as Value };
}

function compileMember(node: jsep.MemberExpression, scope: Scope): Compiled {
  const obj = node.object;
  const prop = node.property;
  if (node.computed || obj.type !== 'Identifier' || prop.type !== 'Identifier') {
    throw new ExpressionError('only fields of a named record can be read (e.g. after.winProbability)');
  }
  const name = (obj as jsep.Identifier).name;
  const field = (prop as jsep.Identifier).name;
  const t = scope.variables.get(name);
  if (!t) throw new ExpressionError(`unknown name "${name}" (known here: ${knownNames(scope)})`);
  if (t.kind !== 'record') throw new ExpressionError(`"${name}" has no fields`);
  const ft = Object.prototype.hasOwnProperty.call(t.fields, field) ? t.fields[field] : undefined;
  if (!ft) throw new ExpressionError(`${name} has no field "${field}" (it has ${Object.keys(t.fields).join(', ')})`);
  return { type: ft, evaluate: (env) => (env[name] as Record<string, Value>)[field]! };
}

function expectKind(c: Compiled, kind: ValueType['kind'], what: string): void {
  if (c.type.kind !== kind) throw new ExpressionError(`${what} needs a ${kind}, got a ${describe(c.type)}`);
}

function compileUnary(node: jsep.UnaryExpression, scope: Scope): Compiled {
  const arg = compileNode(node.argument, scope);
  const f = arg.evaluate;
  switch (node.operator) {
    case '-':
      expectKind(arg, 'number', 'unary -');
      return fold(NUMBER, (env) => -(f(env) as number), [arg]);
    case '+':
      expectKind(arg, 'number', 'unary +');
      return arg;
    case '!':
      expectKind(arg, 'boolean', '!');
      return fold(BOOLEAN, (env) => !(f(env) as boolean), [arg]);
    default:
      throw new ExpressionError(`unsupported operator ${node.operator}`);
  }
}

/** Checks a text literal against the domain of the other side of a comparison, and normalizes it. */
function alignText(a: Compiled, b: Compiled): [Compiled, Compiled] {
  if (a.type.kind !== 'text' || b.type.kind !== 'text') return [a, b];
  const da = a.type.domain;
  const db = b.type.domain;
  if (da === db) return [a, b];
  if (db === FREE_TEXT && typeof b.constant === 'string') return [a, checkedLiteral(b.constant, da)];
  if (da === FREE_TEXT && typeof a.constant === 'string') return [checkedLiteral(a.constant, db), b];
  if (da === FREE_TEXT || db === FREE_TEXT) return [a, b];
  throw new ExpressionError(`cannot compare a ${da.name} with a ${db.name}`);
}

function checkedLiteral(literal: string, domain: TextDomain): Compiled {
  const v = domain.check(literal);
  if (v === null) throw new ExpressionError(`'${literal}' is not a ${domain.name} (${domain.hint})`);
  return constant(v, text(domain));
}

function compileBinary(node: jsep.BinaryExpression, scope: Scope): Compiled {
  let l = compileNode(node.left, scope);
  let r = compileNode(node.right, scope);
  const op = node.operator;
  const parts = [l, r];
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '%': {
      expectKind(l, 'number', op);
      expectKind(r, 'number', op);
      const a = l.evaluate;
      const b = r.evaluate;
      const f =
        op === '+'
          ? (env: Env) => (a(env) as number) + (b(env) as number)
          : op === '-'
            ? (env: Env) => (a(env) as number) - (b(env) as number)
            : op === '*'
              ? (env: Env) => (a(env) as number) * (b(env) as number)
              : op === '/'
                ? (env: Env) => (a(env) as number) / (b(env) as number)
                : (env: Env) => (a(env) as number) % (b(env) as number);
      return fold(NUMBER, f, parts);
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      expectKind(l, 'number', op);
      expectKind(r, 'number', op);
      const a = l.evaluate;
      const b = r.evaluate;
      const f =
        op === '<'
          ? (env: Env) => (a(env) as number) < (b(env) as number)
          : op === '<='
            ? (env: Env) => (a(env) as number) <= (b(env) as number)
            : op === '>'
              ? (env: Env) => (a(env) as number) > (b(env) as number)
              : (env: Env) => (a(env) as number) >= (b(env) as number);
      return fold(BOOLEAN, f, parts);
    }
    case '==':
    case '===':
    case '!=':
    case '!==': {
      [l, r] = alignText(l, r);
      if (l.type.kind !== r.type.kind)
        throw new ExpressionError(`cannot compare a ${describe(l.type)} with a ${describe(r.type)} (${op})`);
      const a = l.evaluate;
      const b = r.evaluate;
      const f = op === '==' || op === '===' ? (env: Env) => a(env) === b(env) : (env: Env) => a(env) !== b(env);
      return fold(BOOLEAN, f, [l, r]);
    }
    case '&&':
    case '||': {
      expectKind(l, 'boolean', op);
      expectKind(r, 'boolean', op);
      const a = l.evaluate;
      const b = r.evaluate;
      const f =
        op === '&&'
          ? (env: Env) => (a(env) as boolean) && (b(env) as boolean)
          : (env: Env) => (a(env) as boolean) || (b(env) as boolean);
      return fold(BOOLEAN, f, parts);
    }
    default:
      throw new ExpressionError(`unsupported operator ${op} (use + - * / % < <= > >= == != && || ! and c ? a : b)`);
  }
}

function compileConditional(node: jsep.ConditionalExpression, scope: Scope): Compiled {
  const test = compileNode(node.test, scope);
  expectKind(test, 'boolean', 'the condition of ? :');
  let yes = compileNode(node.consequent, scope);
  let no = compileNode(node.alternate, scope);
  [yes, no] = alignText(yes, no);
  if (yes.type.kind !== no.type.kind)
    throw new ExpressionError(`the two branches of ? : differ: a ${describe(yes.type)} and a ${describe(no.type)}`);
  const t = test.evaluate;
  const a = yes.evaluate;
  const b = no.evaluate;
  return fold(yes.type, (env) => (t(env) ? a(env) : b(env)), [test, yes, no]);
}

function compileCall(node: jsep.CallExpression, scope: Scope): Compiled {
  if (node.callee.type !== 'Identifier') throw new ExpressionError('only the listed functions can be called');
  const name = (node.callee as jsep.Identifier).name;
  const spec = scope.functions.get(name);
  if (!spec)
    throw new ExpressionError(`unknown function "${name}" (known: ${[...scope.functions.keys()].sort().join(', ')})`);
  const args = node.arguments.map((a) => compileNode(a, scope));
  const n = spec.params.length;
  if (spec.variadic ? args.length < n : args.length !== n) {
    throw new ExpressionError(
      `${name} takes ${spec.variadic ? `${n} or more arguments` : `${n} argument${n === 1 ? '' : 's'}`}, got ${args.length}`,
    );
  }
  const checked = args.map((a, i) => {
    const want = spec.params[Math.min(i, n - 1)]!;
    if (a.type.kind !== want.kind)
      throw new ExpressionError(`argument ${i + 1} of ${name} must be a ${describe(want)}, got a ${describe(a.type)}`);
    if (
      want.kind === 'text' &&
      a.type.kind === 'text' &&
      a.type.domain === FREE_TEXT &&
      typeof a.constant === 'string'
    ) {
      return checkedLiteral(a.constant, want.domain);
    }
    if (
      want.kind === 'text' &&
      a.type.kind === 'text' &&
      a.type.domain !== want.domain &&
      a.type.domain !== FREE_TEXT
    ) {
      throw new ExpressionError(`argument ${i + 1} of ${name} must be a ${describe(want)}, got a ${describe(a.type)}`);
    }
    return a;
  });
  const impl = spec.impl as (env: Env, ...xs: Value[]) => Value;
  const fs = checked.map((a) => a.evaluate);
  let evaluate: (env: Env) => Value;
  if (fs.length === 1) {
    const f0 = fs[0]!;
    evaluate = (env) => impl(env, f0(env));
  } else if (fs.length === 2) {
    const [f0, f1] = fs as [(env: Env) => Value, (env: Env) => Value];
    evaluate = (env) => impl(env, f0(env), f1(env));
  } else {
    evaluate = (env) => impl(env, ...fs.map((f) => f(env)));
  }
  return spec.readsEvent ? { type: spec.returns, evaluate } : fold(spec.returns, evaluate, checked);
}

/** Text with no particular meaning (a literal before it meets what it is compared with). */
const FREE_TEXT: TextDomain = { name: 'text', check: (s) => s, hint: 'any text' };
