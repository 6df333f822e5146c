#!/usr/bin/env python3
"""What one generated item per field costs `cargo check`, whatever the derive puts in it.

Writes one crate of 200 structs of 12 fields (a tenth embedded structs, a tenth
`Vec<Embedded>`, the rest `String`), plain Rust with no dependency, in four shapes of the
typed-paths code a derive could generate per struct, and counts under callgrind the
instructions rustc executes to check each (`--emit=metadata`, the work of `cargo check`):

  none     the structs and a trait impl naming no paths: the baseline
  methods  a `{Type}Fields(Path)` with one method per field (the `paths` feature's shape)
  fields   a `{Type}Fields` with one public field per field, built by one function
  consts   a `{Type}Fields` with one field per field, of one concrete type, in a constant:
           the cheapest item a field can have

Prints each shape's count and its cost per field above `none`. It answers whether any
per-field design can be cheap enough to be on by default (docs/BENCHMARKS.md, "Field
paths at no cost per model").

  python3 bench/compile/per_field.py [--dir DIR]
"""
import argparse, os, random, re, subprocess, sys, tempfile

STRUCTS, FIELDS = 200, 12

RUNTIME = r'''
pub struct Path(std::borrow::Cow<'static, str>);
impl Path {
    pub fn join(&self, k: &'static str) -> Path {
        if self.0.is_empty() { Path(k.into()) } else { Path(format!("{}.{}", self.0, k).into()) }
    }
}
pub trait Node { fn at(p: Path) -> Self; fn path(&self) -> &Path; }
pub trait Schema { type Fields: Node; }
pub struct Leaf(Path);
impl Node for Leaf { fn at(p: Path) -> Self { Leaf(p) } fn path(&self) -> &Path { &self.0 } }
pub struct Array<T>(Path, std::marker::PhantomData<T>);
impl<T: Schema> Node for Array<T> {
    fn at(p: Path) -> Self { Array(p, std::marker::PhantomData) }
    fn path(&self) -> &Path { &self.0 }
}
pub fn child<N: Node>(p: &Path, k: &'static str) -> N { N::at(p.join(k)) }
pub struct Nested<T>(Path, std::cell::OnceCell<Box<T>>);
impl<T: Node> Node for Nested<T> {
    fn at(p: Path) -> Self { Nested(p, std::cell::OnceCell::new()) }
    fn path(&self) -> &Path { &self.0 }
}
impl<T: Node> std::ops::Deref for Nested<T> {
    type Target = T;
    fn deref(&self) -> &T { self.1.get_or_init(|| Box::new(T::at(Path(self.0 .0.clone())))) }
}
pub struct Key(pub &'static str);
'''


def source(shape):
    rng = random.Random(1)
    out = ["#![allow(dead_code)]", RUNTIME]
    for i in range(STRUCTS):
        fields = []
        for j in range(FIELDS):
            roll = rng.random()
            if i > 10 and roll < 0.1:
                t = f"S{rng.randrange(i)}"
                fields.append((f"f{j}", t, f"<{t} as Schema>::Fields", True))
            elif i > 10 and roll < 0.2:
                t = f"S{rng.randrange(i)}"
                fields.append((f"f{j}", f"Vec<{t}>", f"Array<{t}>", False))
            else:
                fields.append((f"f{j}", "String", "Leaf", False))
        out.append(f"pub struct S{i} {{ " + " ".join(f"pub {n}: {t}," for n, t, _, _ in fields) + " }")
        if shape in ("none", "consts"):
            out.append(f"impl Schema for S{i} {{ type Fields = Leaf; }}")
        else:
            out.append(f"impl Schema for S{i} {{ type Fields = S{i}Fields; }}")
        if shape == "methods":
            out.append(f"pub struct S{i}Fields(Path);")
            out.append(f"impl Node for S{i}Fields {{ fn at(p: Path) -> Self {{ S{i}Fields(p) }} "
                       f"fn path(&self) -> &Path {{ &self.0 }} }}")
            out.append(f"impl S{i}Fields {{ " + " ".join(
                f'pub fn {n}(&self) -> {p} {{ child(&self.0, "{n}") }}' for n, _, p, _ in fields) + " }")
        elif shape == "fields":
            ty = lambda p, nested: f"Nested<{p}>" if nested else p
            out.append(f"pub struct S{i}Fields {{ path: Path, " + " ".join(
                f"pub {n}: {ty(p, nested)}," for n, _, p, nested in fields) + " }")
            out.append(f"impl Node for S{i}Fields {{ fn at(p: Path) -> Self {{ S{i}Fields {{ " + " ".join(
                f'{n}: child(&p, "{n}"),' for n, _, _, _ in fields) + " path: p } } "
                "fn path(&self) -> &Path { &self.path } }")
        elif shape == "consts":
            out.append(f"pub struct S{i}Fields {{ " + " ".join(f"pub {n}: Key," for n, _, _, _ in fields) + " }")
            out.append(f"impl S{i} {{ pub const FIELDS: S{i}Fields = S{i}Fields {{ " + " ".join(
                f'{n}: Key("{n}"),' for n, _, _, _ in fields) + " }; }")
    return "\n".join(out) + "\n"


def instructions(rustc, path, out):
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg",
                               f"--log-file={tmp}/log", rustc, "--edition", "2021", "--crate-type", "lib",
                               "--emit=metadata", "-o", out, path], capture_output=True, text=True)
        log = open(f"{tmp}/log").read()
    found = re.search(r"refs:\s+([\d,]+)", log)
    if proc.returncode != 0 or not found:
        sys.exit(f"rustc of {path} failed:\n{proc.stderr[-2000:]}{log[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=tempfile.mkdtemp(prefix="per-field-"))
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True).stdout.strip()
    rustc = os.path.join(sysroot, "bin", "rustc")  # the compiler itself, not rustup's proxy
    counts = {}
    for shape in ["none", "methods", "fields", "consts"]:
        path = os.path.join(a.dir, f"{shape}.rs")
        with open(path, "w") as f:
            f.write(source(shape))
        counts[shape] = instructions(rustc, path, os.path.join(a.dir, f"{shape}.rmeta"))
        extra = (counts[shape] - counts["none"]) / (STRUCTS * FIELDS)
        print(f"{shape:8} {counts[shape] / 1e9:6.3f} G  per field above none: {extra / 1e3:6.0f} K", flush=True)


if __name__ == "__main__":
    main()
