// The command language: text -> Query -> parameters, summaries, canonical text and help. Pure: no I/O.
export type { Query, ParseResult, Suggestion } from './types.js';
export { parseCommand, RENT_FLOOR, SALE_FLOOR } from './parse.js';
export { learnAreaNames } from './scan.js';
export { parseToJson, toParams } from './params.js';
export { summarize } from './summarize.js';
export { formatQuery } from './format.js';
export { helpText, isHelpTopic } from './help.js';
export { compareRequest, MAX_COMPARE_AREAS, type CompareAsk } from './compare.js';
export { smallTalkOf, smallTalkReply, typedWithSlash, type SmallTalkKind } from './small-talk.js';
export { asTyped, type CommandStyle } from './typed.js';
export { deliveryNote, takeDeliveryWords, type DeliveryWords } from './delivery.js';
export { ALERTABLE, alertRefusal, notAlertable } from './alertable.js';
export { arabicNameOf, hasArabic, readArabic } from './arabic.js';
export { wordsKey, wordsFromKey, wordsSchema, type Words } from './words.js';
export { passesWords } from './words-match.js';
