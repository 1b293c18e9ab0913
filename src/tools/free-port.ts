import net from 'node:net'

/** A loopback port nobody listens on right now, for a server the caller starts itself. */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Waits until something listens on a loopback port (a server a child process starts), for up to five seconds. */
export async function listening(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end()
        resolve(true)
      })
      socket.on('error', () => {
        resolve(false)
      })
    })) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
