// A stand-in runtime, so that this case depends only on the macro.
mod fake {
    pub mod runtime {
        pub struct Builder;
        pub struct Runtime;
        impl Builder {
            pub fn new_multi_thread() -> Builder {
                Builder
            }
            pub fn enable_all(self) -> Builder {
                self
            }
            pub fn build(self) -> std::io::Result<Runtime> {
                Ok(Runtime)
            }
        }
        impl Runtime {
            pub fn block_on<F: std::future::Future>(&self, _: F) -> F::Output {
                panic!("this fixture is only compiled, never run")
            }
        }
    }
}

#[rt::main(crate = "fake")]
async fn missing_return_type() {
    Ok(())
}

#[rt::main(crate = "fake")]
async fn wrong_tail_type() -> u32 {
    "four"
}

#[rt::main(crate = "fake")]
async fn wrong_return_value() -> Result<(), String> {
    if true {
        return Ok(1);
    }
    Ok(())
}

fn main() {}
