// Reads the layers of a small MLP from the bytes of an ONNX file (a protobuf): the Gemm nodes of the
// graph in order, with their weight and bias initializers. Enough for the policies train_policy.py
// exports (Gemm, Relu and the masking ops); anything else is refused with a reason. No I/O: the caller
// reads the file (robot/learned/load.ts) and passes the bytes.
//
// Protobuf fields used (onnx.proto3): ModelProto 7 graph, 14 metadata_props (StringStringEntryProto:
// 1 key, 2 value); GraphProto 1 node, 5 initializer, 11 input; NodeProto 1 input, 2 output, 4 op_type,
// 5 attribute; AttributeProto 1 name, 3 i; TensorProto 1 dims, 2 data_type, 4 float_data, 8 name,
// 9 raw_data; ValueInfoProto 1 name.

export class ModelFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFormatError';
  }
}

interface Field {
  no: number;
  wire: number;
  /** varint value (wire 0), or the bytes (wire 2), or 4/8 raw bytes (wire 5/1). */
  int: number;
  bytes: Uint8Array;
}

function* fields(buf: Uint8Array): Generator<Field> {
  let p = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (p >= buf.length)
        throw new ModelFormatError('not an ONNX model: a protobuf field runs past the end of the file');
      const b = buf[p++]!;
      v += (b & 0x7f) * mul;
      if (!(b & 0x80)) return v;
      mul *= 128;
    }
  };
  while (p < buf.length) {
    const key = varint();
    const no = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) yield { no, wire, int: varint(), bytes: buf.subarray(0, 0) };
    else if (wire === 2) {
      const len = varint();
      if (p + len > buf.length)
        throw new ModelFormatError('not an ONNX model: a protobuf field runs past the end of the file');
      yield { no, wire, int: len, bytes: buf.subarray(p, p + len) };
      p += len;
    } else if (wire === 5 || wire === 1) {
      const n = wire === 5 ? 4 : 8;
      if (p + n > buf.length)
        throw new ModelFormatError('not an ONNX model: a protobuf field runs past the end of the file');
      yield { no, wire, int: 0, bytes: buf.subarray(p, p + n) };
      p += n;
    } else throw new ModelFormatError(`not an ONNX model: protobuf wire type ${wire}`);
  }
}

const utf8 = new TextDecoder();
const text = (b: Uint8Array): string => utf8.decode(b);

interface Tensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

function tensor(buf: Uint8Array): Tensor {
  let name = '';
  const dims: number[] = [];
  let type = 0;
  let raw: Uint8Array | null = null;
  const floats: number[] = [];
  for (const f of fields(buf)) {
    if (f.no === 1 && f.wire === 0) dims.push(f.int);
    else if (f.no === 1 && f.wire === 2) for (const d of fields(prefixPacked(f.bytes))) dims.push(d.int);
    else if (f.no === 2) type = f.int;
    else if (f.no === 8) name = text(f.bytes);
    else if (f.no === 9) raw = f.bytes;
    else if (f.no === 4 && f.wire === 2) {
      const v = new DataView(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength);
      for (let i = 0; i + 4 <= f.bytes.byteLength; i += 4) floats.push(v.getFloat32(i, true));
    }
  }
  const size = dims.reduce((a, b) => a * b, 1);
  let data: Float32Array;
  if (type !== 1)
    data = new Float32Array(0); // not float: not a layer's weights (shapes, indices)
  else if (raw) {
    data = new Float32Array(size);
    const v = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    if (raw.byteLength !== size * 4)
      throw new ModelFormatError(`initializer ${name}: ${raw.byteLength} bytes for ${size} floats`);
    for (let i = 0; i < size; i++) data[i] = v.getFloat32(i * 4, true);
  } else data = Float32Array.from(floats);
  return { name, dims, data };
}

/** A packed repeated varint field, re-keyed as field 1 varints so `fields` can read it. */
function prefixPacked(b: Uint8Array): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < b.length) {
    out.push(0x08);
    do out.push(b[i]!);
    while (b[i++]! & 0x80 && i < b.length);
  }
  return Uint8Array.from(out);
}

/** One dense layer: y = W x + b, W stored row by row (out x in). */
export interface DenseLayer {
  inputs: number;
  outputs: number;
  weight: Float32Array;
  bias: Float32Array;
}

interface OnnxMlp {
  layers: DenseLayer[];
  /** The graph's input names (the first is the features). */
  inputs: string[];
  outputs: string[];
  /** metadata_props, when the exporter wrote any. */
  metadata: Record<string, string>;
  /** The op types in the graph, in order. */
  ops: string[];
}

/** The dense layers of an MLP exported to ONNX, in the order they are applied. */
export function readOnnxMlp(bytes: Uint8Array): OnnxMlp {
  let graph: Uint8Array | null = null;
  const metadata: Record<string, string> = {};
  for (const f of fields(bytes)) {
    if (f.no === 7 && f.wire === 2) graph = f.bytes;
    else if (f.no === 14 && f.wire === 2) {
      let k = '';
      let v = '';
      for (const e of fields(f.bytes)) {
        if (e.no === 1) k = text(e.bytes);
        else if (e.no === 2) v = text(e.bytes);
      }
      metadata[k] = v;
    }
  }
  if (!graph) throw new ModelFormatError('not an ONNX model: no graph');
  const inits = new Map<string, Tensor>();
  const nodes: { op: string; inputs: string[]; transB: number }[] = [];
  const inputs: string[] = [];
  const outputs: string[] = [];
  for (const f of fields(graph)) {
    if (f.no === 5 && f.wire === 2) {
      const t = tensor(f.bytes);
      inits.set(t.name, t);
    } else if (f.no === 1 && f.wire === 2) {
      let op = '';
      const ins: string[] = [];
      let transB = 0;
      for (const n of fields(f.bytes)) {
        if (n.no === 1) ins.push(text(n.bytes));
        else if (n.no === 4) op = text(n.bytes);
        else if (n.no === 5) {
          let name = '';
          let i = 0;
          for (const a of fields(n.bytes)) {
            if (a.no === 1) name = text(a.bytes);
            else if (a.no === 3) i = a.int;
          }
          if (name === 'transB') transB = i;
        }
      }
      nodes.push({ op, inputs: ins, transB });
    } else if (f.no === 11 && f.wire === 2) {
      for (const v of fields(f.bytes)) if (v.no === 1) inputs.push(text(v.bytes));
    } else if (f.no === 12 && f.wire === 2) {
      for (const v of fields(f.bytes)) if (v.no === 1) outputs.push(text(v.bytes));
    }
  }
  const allowed = new Set([
    'Gemm',
    'Relu',
    'Slice',
    'Sub',
    'Mul',
    'Add',
    'Softmax',
    'LogSoftmax',
    'Constant',
    'Exp',
    'Identity',
    'Gather',
    'Unsqueeze',
    'Concat',
    'Shape',
  ]);
  const odd = nodes.filter((n) => !allowed.has(n.op)).map((n) => n.op);
  if (odd.length)
    throw new ModelFormatError(
      `not a policy MLP this runtime reads: the graph has ${[...new Set(odd)].join(', ')} (it reads Gemm layers with Relu between them)`,
    );
  const layers: DenseLayer[] = [];
  for (const n of nodes.filter((x) => x.op === 'Gemm')) {
    const w = inits.get(n.inputs[1] ?? '');
    const b = inits.get(n.inputs[2] ?? '');
    if (!w || !b || w.dims.length !== 2)
      throw new ModelFormatError('a Gemm layer without its weight and bias initializers');
    // transB = 1: W is out x in (torch's Linear); else in x out, transposed here.
    const [d0, d1] = w.dims as [number, number];
    const outputs = n.transB ? d0 : d1;
    const inputs = n.transB ? d1 : d0;
    let weight = w.data;
    if (!n.transB) {
      weight = new Float32Array(w.data.length);
      for (let i = 0; i < inputs; i++)
        for (let o = 0; o < outputs; o++) weight[o * inputs + i] = w.data[i * outputs + o]!;
    }
    if (b.data.length !== outputs)
      throw new ModelFormatError(`a layer of ${outputs} outputs has a bias of ${b.data.length}`);
    layers.push({ inputs, outputs, weight, bias: b.data });
  }
  if (!layers.length) throw new ModelFormatError('not a policy MLP: the graph has no Gemm layer');
  for (let i = 1; i < layers.length; i++) {
    if (layers[i]!.inputs !== layers[i - 1]!.outputs)
      throw new ModelFormatError(
        `layer ${i} takes ${layers[i]!.inputs} inputs, the layer before gives ${layers[i - 1]!.outputs}`,
      );
  }
  const relus = nodes.filter((x) => x.op === 'Relu').length;
  if (relus !== layers.length - 1)
    throw new ModelFormatError(`expected a Relu between each two of the ${layers.length} layers, found ${relus}`);
  return { layers, inputs, outputs, metadata, ops: nodes.map((n) => n.op) };
}
