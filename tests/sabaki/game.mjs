// Drives the tessera binary through @sabaki/gtp, the GTP client library of the
// Sabaki GUI: a whole Rekushu 5x5 game (genmove for Black, reg_genmove + play
// for White), a streamed analysis ended by the next command, genmove_analyze,
// an error reply, and REBUS moves. Exits 0 when every check passes.
//
// Usage: node game.mjs <path to tessera>   (run by tests/sabaki_gtp.rs)

import assert from 'node:assert/strict'
import gtp from '@sabaki/gtp'

const {Controller} = gtp

const binary = process.argv[2]
if (!binary) {
  console.error('usage: node game.mjs <path to tessera>')
  process.exit(2)
}

const engine = new Controller(binary, [])
engine.start()
let log = []

/** Sends a command; returns the reply's content and checks success. */
async function ok(line) {
  const [name, ...args] = line.split(' ')
  const r = await engine.sendCommand({name, args})
  log.push(`> ${line}\n${r.error ? '?' : '='} ${r.content}`)
  assert.equal(r.error, false, `'${line}' failed: ${r.content}`)
  return r.content
}

/** Sends a command that must fail; returns the message. */
async function fails(line) {
  const [name, ...args] = line.split(' ')
  const r = await engine.sendCommand({name, args})
  log.push(`> ${line}\n${r.error ? '?' : '='} ${r.content}`)
  assert.equal(r.error, true, `'${line}' should fail, got: ${r.content}`)
  return r.content
}

const SCORE = /^(?:[+-]\d+\.\d\d|[WL]\d+)$/

/** Checks one streamed line of analyze / genmove_analyze:
 *  `info move M order K score S [bound upper] [depth D seldepth S nodes N nps N time T] pv M...`
 *  (the figures on order 0 only) or `play M`. */
function checkStreamLine(line) {
  const w = line.split(' ')
  if (w[0] === 'play') {
    assert.equal(w.length, 2, line)
    return
  }
  assert.deepEqual([w[0], w[1], w[3], w[5]], ['info', 'move', 'order', 'score'], line)
  assert.match(w[4], /^\d+$/, line)
  assert.match(w[6], SCORE, line)
  let at = 7
  if (w[at] === 'bound') {
    assert.equal(w[at + 1], 'upper', line)
    at += 2
  }
  if (w[4] === '0') {
    for (const key of ['depth', 'seldepth', 'nodes', 'nps', 'time']) {
      assert.equal(w[at], key, line)
      assert.match(w[at + 1], /^\d+$/, line)
      at += 2
    }
  }
  assert.equal(w[at], 'pv', line)
  assert.equal(w[at + 1], w[2], line)
}

async function main() {
  assert.equal(await ok('protocol_version'), '2')
  assert.equal(await ok('name'), 'tessera')
  const commands = (await ok('list_commands')).split('\n')
  for (const c of ['genmove', 'play', 'final_score', 'analyze', 'genmove_analyze', 'gogui-rules_board']) {
    assert.ok(commands.includes(c), `list_commands lacks ${c}`)
  }

  // Errors: a reply starting with '?' quoting the bad input; nothing changes.
  assert.match(await fails('play b Z99'), /syntax error: .*'Z99'/)
  assert.match(await fails('frobnicate'), /unknown command: 'frobnicate'/)
  assert.match(await fails('boardsize 99'), /unacceptable size/)

  await ok('boardsize 5')
  await ok('clear_board')
  await ok('komi 0')

  // A streamed analysis (no limit: only input can end it): the subscriber
  // sees each line as it comes; the next command, sent while it streams,
  // ends it and is answered after it.
  const streamed = []
  let nameReply = null
  // Sabaki sends the colour to move first, as to lz-analyze.
  const analysis = engine.sendCommand({name: 'analyze', args: ['B', '5', '2']}, evt => {
    if (evt.line !== '' && !evt.line.startsWith('=')) streamed.push(evt.line)
    if (streamed.length >= 2 && nameReply === null) {
      nameReply = engine.sendCommand({name: 'name'})
    }
  })
  const a = await analysis
  assert.equal(a.error, false, a.content)
  assert.ok(streamed.length >= 2, `analysis streamed ${streamed.length} lines`)
  streamed.forEach(checkStreamLine)
  assert.equal(a.content.split('\n').length, streamed.length)
  assert.notEqual(nameReply, null)
  assert.equal((await nameReply).content, 'tessera')
  assert.equal(await ok('final_score'), '0', 'analysis changed the position')
  assert.equal(await ok('list_moves'), (await ok('gogui-rules_legal_moves')).replace(/\s+/g, ' '))
  await ok('limit depth 2')

  // genmove_analyze: streams, ends with 'play <move>', plays it.
  const legal = (await ok('list_moves')).split(' ')
  const ga = (await ok('genmove_analyze b 5 2')).split('\n')
  ga.forEach(checkStreamLine)
  const first = ga[ga.length - 1].split(' ')[1]
  assert.ok(legal.includes(first), `genmove_analyze played ${first}`)
  assert.equal(await ok('gogui-rules_side_to_move'), 'white')

  // The rest of the game: White by reg_genmove + play, Black by genmove.
  let plies = 1
  while ((await ok('game_status')) === 'ongoing') {
    assert.ok(plies < 200, 'the game does not end')
    const side = await ok('gogui-rules_side_to_move')
    if (side === 'black') {
      const mv = await ok('genmove b')
      assert.match(mv, /^[A-E][1-5](?::[A-E][1-5]-[A-E][1-5])?$/)
    } else {
      const mv = await ok('reg_genmove w')
      await ok(`play w ${mv}`)
    }
    plies++
  }
  const status = await ok('game_status')
  const score = await ok('final_score')
  assert.match(score, /^(?:[BW]\+\d+|0)$/)
  assert.ok(status.startsWith(`over ${score} `), `${status} vs ${score}`)
  assert.match(await fails('genmove b'), /the game is over/)
  assert.match(await fails('analyze'), /the game is over/)
  assert.equal(await ok('gogui-rules_legal_moves'), '')

  // REBUS: a move each way.
  await ok('game rebus')
  await ok('play red d3xd5')
  const blue = await ok('genmove blue')
  assert.match(blue, /^(?:[a-i][1-9](?:x[a-i][1-9])+(?:\+[a-i][1-9])?|[a-h][1-8]L[23]|pass|yield)$/)
  assert.match(await fails('play blue d3xd5'), /'?d3xd5'?/)
  assert.match(await ok('position'), / red /)

  await engine.stop()
  console.log(`sabaki gtp: ok (${plies} plies of Rekushu 5x5, score ${score}, REBUS reply ${blue})`)
}

main().catch(async err => {
  console.error('sabaki gtp: FAILED')
  console.error(log.slice(-12).join('\n'))
  console.error(err)
  try {
    await engine.kill()
  } catch {}
  process.exit(1)
})
