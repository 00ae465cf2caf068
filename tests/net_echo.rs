//! TCP echo through the facade on both runtime flavors, with the I/O
//! traits: what a tokio user writes, after `use rt as tokio`.

use rt as tokio;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

async fn echo_round_trips(clients: usize, rounds: usize) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let mut conns = Vec::new();
        for _ in 0..clients {
            let (mut socket, _) = listener.accept().await.unwrap();
            conns.push(tokio::spawn(async move {
                let mut buf = [0u8; 1024];
                loop {
                    let n = socket.read(&mut buf).await.unwrap();
                    if n == 0 {
                        return;
                    }
                    socket.write_all(&buf[..n]).await.unwrap();
                }
            }));
        }
        for c in conns {
            c.await.unwrap();
        }
    });
    let mut handles = Vec::new();
    for id in 0..clients {
        handles.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(addr).await.unwrap();
            for round in 0..rounds {
                let msg = format!("client {id} round {round}");
                stream.write_all(msg.as_bytes()).await.unwrap();
                let mut back = vec![0u8; msg.len()];
                stream.read_exact(&mut back).await.unwrap();
                assert_eq!(back, msg.as_bytes());
            }
            stream.shutdown().await.unwrap();
        }));
    }
    for h in handles {
        h.await.unwrap();
    }
    server.await.unwrap();
}

#[tokio::test]
async fn echo_on_the_current_thread_runtime() {
    echo_round_trips(50, 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_on_the_multi_thread_runtime() {
    echo_round_trips(200, 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn split_halves_copy_in_both_directions() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let (mut rd, mut wr) = socket.into_split();
        tokio::io::copy(&mut rd, &mut wr).await.unwrap()
    });
    let mut client = TcpStream::connect(addr).await.unwrap();
    let payload: Vec<u8> = (0..1_000_000u32).map(|i| i as u8).collect();
    let (mut rd, mut wr) = client.split();
    let send = async {
        wr.write_all(&payload).await.unwrap();
        wr.shutdown().await.unwrap();
    };
    let recv = async {
        let mut back = Vec::new();
        rd.read_to_end(&mut back).await.unwrap();
        back
    };
    let ((), back) = tokio::join!(send, recv);
    assert_eq!(back, payload);
    assert_eq!(server.await.unwrap(), payload.len() as u64);
}

#[test]
#[should_panic(expected = "enable_io")]
fn sockets_need_the_io_driver() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let _ = TcpListener::bind("127.0.0.1:0").await;
    });
}
