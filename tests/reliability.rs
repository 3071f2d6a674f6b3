mod common;
use gpuarray::*;
#[test]
fn probe() {
    let t = std::time::Instant::now();
    let Some(dev) = common::device() else { return };
    println!("{} {:?} startup {:?} total {:?}", dev.info(), dev.info().features, dev.info().startup, t.elapsed());
    println!("{:?} {} {}", dev.limits().max_buffer_size, dev.limits().max_storage_buffer_binding_size, dev.limits().min_storage_buffer_offset_alignment);
    println!("{:?}", DType::F64.size_bytes());
}
