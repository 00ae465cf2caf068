#[rt::main]
fn main() {}
