import type { SignalName } from "./signals.ts";

// The words of a message addressed to a model rather than a person: orders
// to drop its instructions, chat-template role markers, tool-call syntax,
// asks for its secrets and for mail to be sent elsewhere. In English,
// German, French, Spanish, Italian, Portuguese, Chinese and Japanese.
//
// Each pattern reads the message's flat view (whitespace runs as one space,
// invisible characters and compatibility forms gone, see text.ts) or its
// lines. Every quantifier is bounded, so an attempt at one position reads at
// most a few hundred characters: a pattern's work grows with the text's
// length, never with its square.

export interface Phrase {
  name: SignalName;
  pattern: RegExp;
  /** `lines` for patterns anchored at a line's start; `flat` for the rest. */
  view: "flat" | "lines";
  /** A match right after never, not or don't (in the languages above) is a warning to a person, not an ask. */
  negatable?: true;
}

/** Up to n words of any kind. */
const words = (n: number) => `(?: [\\p{L}\\p{N}'’.,-]{1,24}){0,${n}}`;
/**
 * Not inside a word (JavaScript's \b knows ASCII letters only). A pattern that
 * begins with it begins each of its top-level alternatives with it: text.ts
 * writes it once before all such patterns.
 */
export const START = "(?<![\\p{L}\\p{N}])";
const END = "(?![\\p{L}\\p{N}])";
/** An address or a place to send to. */
const DESTINATION = "(?:[\\p{L}\\p{N}._%+-]{1,64}@|https?:|me\\b|us\\b|this address|the following)";

const phrase = (name: SignalName, source: string, options: Partial<Pick<Phrase, "view" | "negatable">> = {}) => ({
  name,
  pattern: new RegExp(source, options.view === "lines" ? "gimu" : "giu"),
  view: options.view ?? "flat",
  ...(options.negatable ? { negatable: true as const } : {}),
});

const AI = "(?:ai|a\\.i\\.|llm|language model|chatbot|chatgpt|gpt|ai (?:assistant|agent|model|system)s?)";

export const PHRASES: Phrase[] = [
  // "Ignore all previous instructions" and its kin.
  phrase(
    "ai_instruction",
    `${START}(?:ignore|disregard|forget|override|bypass|discard)(?: all| any| every| of| the| your| these| those| above){0,3} (?:previous|prior|preceding|above|earlier|former|original|initial|existing|system|current|other)(?: [\\p{L}]{1,15})? (?:instructions?|prompts?|directions|directives?|rules|guidelines|guidance|context|commands|constraints|restrictions|programming)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:ignore|disregard|forget) (?:everything|all) (?:above|before this|you (?:were|have been) told)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}you(?: are|'re|’re) now (?:(?:an?|the|my) )?(?:(?:new|different|unrestricted|unfiltered|evil|helpful|jailbroken) )?(?:ai|assistant|agent|model|bot|chatbot|llm|dan|jailbroken|unrestricted|unfiltered)${END}`,
  ),
  phrase("ai_instruction", `${START}you(?: are|'re|’re) now in (?:[\\p{L}-]{1,15} )?mode${END}`),
  phrase(
    "ai_instruction",
    `${START}you(?: are|'re|’re) no longer (?:an? )?(?:ai|assistant|bound|restricted|limited)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:new|updated|revised|real|actual|true|hidden|secret) (?:system )?(?:instructions|prompt|directives) (?:for|to) (?:the |any |all |you,? )?${AI}${END}`,
  ),
  phrase("ai_instruction", `${START}(?:new|updated|override) system (?:prompt|instructions?|message)${END}`),
  phrase(
    "ai_instruction",
    `${START}your (?:new|real|actual|true|updated) (?:instructions|directives) (?:are|follow)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:attention|note|message|instructions?|important|notice|memo|hey|hi|hello|dear)(?: to| for)?,? (?:any |all |the )?${AI}s?(?: (?:assistants?|agents?|models?|tools?|systems?))?(?: (?:reading|processing|summari[sz]ing|handling|screening)(?: this(?: email| e-mail| message| mail)?)?)? ?[:,!]`,
  ),
  phrase(
    "ai_instruction",
    `${START}if you are an? (?:${AI}|assistant|bot|automated (?:agent|assistant|system)|(?:ai )?model)${END}`,
  ),
  phrase("ai_instruction", `${START}as an? ${AI}(?: (?:assistant|agent|model))?,? you${END}`),
  phrase(
    "ai_instruction",
    `${START}(?:do not|don't|don’t|never) (?:tell|inform|notify|alert|warn|let) (?:the |your )?(?:user|human|owner|operator)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}without (?:telling|informing|notifying|alerting|asking|confirming with) (?:the |your )?(?:user|human|owner|operator)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:enable|activate|enter) (?:developer|god|dan|jailbreak|unrestricted|admin) mode${END}|${START}(?:developer|god|dan|jailbreak) mode (?:enabled|activated|on)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}when (?:you )?(?:summari[sz]ing|summari[sz]e|processing|reading|answering) (?:this|the) (?:email|e-mail|message|mail|document)${END}`,
  ),
  // German.
  phrase(
    "ai_instruction",
    `${START}(?:ignoriere|ignorieren sie|ignoriert|vergiss|vergessen sie|missachte|missachten sie)(?: alle| sämtliche| die| deine| ihre| bisher){0,3} (?:vorherigen|bisherigen|vorigen|obigen|früheren|vorangegangenen|ursprünglichen|alten|vorhergehenden) (?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:du bist|sie sind) (?:jetzt|nun|ab sofort) (?:(?:eine?|der|die) )?(?:ki|ai|assistent|ki-assistent|agent|bot|sprachmodell|modell)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:neue |geheime )?(?:anweisungen?|hinweis|nachricht) (?:für|an) (?:die |den |alle )?(?:ki|ki-[\\p{L}]{1,15})${END}`,
  ),
  // French.
  phrase(
    "ai_instruction",
    `${START}(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte de|ne tenez pas compte de)(?: toutes| tous| les| vos| tes| des){0,3} (?:instructions|consignes|directives|règles|ordres)(?: [\\p{L}]{1,15})? (?:précédentes|antérieures|ci-dessus|initiales|d'origine)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:tu es|vous êtes) (?:maintenant|désormais|dorénavant) (?:une? )?(?:ia|assistant|agent|modèle|bot)${END}`,
  ),
  // Spanish, Italian, Portuguese.
  phrase(
    "ai_instruction",
    `${START}(?:ignora|ignore|ignoren|ignorar|ignorate|olvida|olvide|olviden|olvidar|dimentica|dimenticate|esqueça|esqueca|esquece)(?: todas| todos| tutte| tutti| las| los| as| os| le| tus| sus| suas){0,3} (?:instrucciones|instruções|instrucoes|istruzioni|indicaciones|reglas|regras|regole|órdenes)(?: [\\p{L}]{1,15})? (?:anteriores|previas|precedentes|precedenti|previe|iniciales|iniciais|originales)${END}`,
  ),
  phrase(
    "ai_instruction",
    `${START}(?:ahora eres|agora você é|ora sei) (?:una? |um |uma )?(?:ia|asistente|assistente|agente|modelo|bot)${END}`,
  ),
  // Chinese, Japanese.
  phrase(
    "ai_instruction",
    "(?:忽略|无视|忘记|忘掉|不要理会|忽视|無視)(?:你|之前|以上|上面|上述|先前|前面|所有|全部|此前|的|一切|原有|原来){0,6}(?:指令|指示|说明|提示|规则|命令|设定|指令)",
  ),
  phrase("ai_instruction", "你现在是(?:一个|一名)?(?:AI|人工智能|助手|机器人|模型|不受限制)"),
  phrase("ai_instruction", "新的?(?:系统)?(?:指令|提示词)[:：]"),
  phrase(
    "ai_instruction",
    "(?:以前|前|上記|これまで|以上)の(?:すべての|全ての)?(?:指示|命令|プロンプト)を(?:すべて)?無視",
  ),

  // Chat templates' role markers.
  phrase(
    "role_marker",
    "<\\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\\|>|\\[/?INST\\]|<</?SYS>>|<(?:start|end)_of_turn>|</?(?:system|system_prompt|assistant|instructions)>",
  ),
  phrase("role_marker", "^#{1,4} ?(?:system|instructions?|assistant|response|user)(?: prompt| message)? ?:?$", {
    view: "lines",
  }),
  phrase(
    "role_marker",
    `^ ?(?:system|assistant|developer)(?: prompt| message)? ?: ?[^\\n]{0,40}?${START}(?:you are (?:an?|the) (?:ai|assistant|helpful|language model|large language model|chatbot|bot|agent)|ignore|disregard|new instructions|override|from now on|as an ai)${END}`,
    { view: "lines" },
  ),

  // Tool and function calls as models write them.
  phrase(
    "tool_call",
    `\\{ ?"(?:tool|tool_name|tool_calls?|tool_use|function_call|function|recipient_name|action_input|tool_input)" ?:|"type" ?: ?"(?:function|tool_use|tool_call|function_call)"`,
  ),
  phrase(
    "tool_call",
    "</?(?:tool_call|tool_calls|tool_use|function_call|function_calls|tool_code|invoke|antml:invoke)(?![\\p{L}\\p{N}_])|<function=[\\w.-]{1,64}>|<\\|(?:tool_call|python_tag|tool_calls)\\|>|\\[TOOL_CALLS\\]",
  ),

  // Asks for the model's secrets.
  phrase(
    "reveal_secrets",
    `${START}(?:reveal|print|output|disclose|leak|dump|expose|repeat|show me|tell me|send me|give me|send us|give us|email me|forward me|reply with|respond with)(?: all| any| the| your| its| their| of){0,3}(?: full| complete| entire| current| hidden| secret| original| initial| exact| stored| saved){0,2} (?:system prompt|initial instructions|original instructions|hidden instructions|instructions above|api keys?|api tokens?|secret keys?|access tokens?|auth(?:entication)? tokens?|bearer tokens?|private keys?|ssh keys?|credentials|secrets|environment variables|env vars|\\.env(?: file)?|passwords|session (?:tokens?|cookies))${END}`,
    { negatable: true },
  ),
  phrase(
    "reveal_secrets",
    `${START}(?:send|share|give|email|forward|post|upload)(?: all| any| the| your| its){1,3} (?:system prompt|api keys?|api tokens?|secret keys?|access tokens?|private keys?|ssh keys?|credentials|secrets|environment variables|passwords) to ${DESTINATION}`,
    { negatable: true },
  ),
  phrase(
    "reveal_secrets",
    `${START}what (?:is|are|was|were) your (?:system prompt|initial instructions|original instructions|instructions|api keys?)${END}|${START}repeat (?:the |all )?(?:words|text|everything) above${END}`,
  ),
  phrase(
    "reveal_secrets",
    `${START}(?:verrate|zeige|zeig|gib|nenne|sende|schicke)(?: mir| uns)? (?:deinen|deine|dein|den|die|alle|ihre|ihren) (?:system-?prompt|api-schlüssel|schlüssel|passwörter|zugangsdaten|geheimen anweisungen)${END}`,
  ),
  phrase(
    "reveal_secrets",
    `${START}(?:révèle|révélez|montre|montrez|donne|donnez|affiche|affichez|envoie|envoyez)(?:-moi|-nous| moi| nous)? (?:ton|ta|tes|votre|vos|le|la|les) (?:prompt système|prompt systeme|clé api|clés api|cle api|mots de passe|identifiants|instructions initiales)${END}`,
  ),
  phrase(
    "reveal_secrets",
    `${START}(?:revela|muestra|muéstrame|dame|envía|envia|envíame|dime)(?: me)? (?:tu|tus|el|la|los|las) (?:prompt del sistema|clave api|claves api|clave de api|contraseñas|credenciales|instrucciones iniciales)${END}`,
  ),
  phrase(
    "reveal_secrets",
    "(?:告诉我|显示|输出|泄露|透露|发送|发给我)(?:你的)?(?:系统提示|系统提示词|API ?密钥|密钥|密码|凭据|初始指令)",
  ),

  // Asks to send mail elsewhere.
  phrase(
    "forward_mail",
    `${START}(?:forward|send|relay|bcc|exfiltrate|transmit|copy)(?: me| us)?(?: all| every| each| of| the| your| my| these| those| entire| whole| complete| last| latest| recent| most| \\d{1,4}){1,5} (?:e-?mails|mails|messages|inbox|mailbox|conversations|threads|correspondence|contacts)${words(6)} to ${DESTINATION}`,
  ),
  phrase(
    "forward_mail",
    `${START}(?:forward|send|relay|bcc|exfiltrate|transmit|copy)(?: me| us)? (?:every|each)(?: single| new| incoming)? (?:e-?mail|mail|message|conversation|thread)${words(6)} to ${DESTINATION}`,
  ),
  phrase(
    "forward_mail",
    `${START}(?:create|add|set up|setup) (?:an? |the )?(?:auto-?forward(?:ing)?|forwarding) (?:rule|filter)${END}`,
  ),
  phrase(
    "forward_mail",
    `${START}(?:leite|leiten sie|sende|senden sie|schicke|schick|schicken sie)(?: mir| uns)?(?: alle| sämtliche| die| deine| ihre| letzten| neuesten| \\d{1,4}){1,4} (?:e-mails|emails|mails|nachrichten)${words(6)} (?:an [\\p{L}\\p{N}._%+-]{1,64}@|weiter)`,
  ),
  phrase(
    "forward_mail",
    `${START}(?:transfère|transférez|transfere|transferez|envoie|envoyez|renvoie|renvoyez)(?:-moi| moi| nous)?(?: tous| toutes| les| tes| vos| derniers| dernières| \\d{1,4}){1,4} (?:e-mails|emails|mails|courriels|messages)${words(6)} (?:à|a|vers) (?:[\\p{L}\\p{N}._%+-]{1,64}@|moi|nous|l'adresse)`,
  ),
  phrase(
    "forward_mail",
    `${START}(?:reenvía|reenvia|reenviar|envía|envia|enviar|manda|reenvíame|inoltra|encaminhe)(?: me)?(?: todos| tutte| los| las| os| tus| sus| últimos| ultimos| ultime| \\d{1,4}){1,4} (?:correos|e-mails|emails|mensajes|messaggi|mensagens)${words(6)} (?:a|para) (?:[\\p{L}\\p{N}._%+-]{1,64}@|mí|mi|nosotros|la dirección)`,
  ),
  phrase(
    "forward_mail",
    "[把将](?:所有|全部|最近|最新|的|\\d{1,4}|[一二三四五六七八九十]{1,3}|封|条){1,6}(?:邮件|电子邮件|信件)都?(?:转发|发送|发)",
  ),
  phrase(
    "forward_mail",
    "(?:转发|发送|发给)(?:所有|全部|最近|最新|的|\\d{1,4}|[一二三四五六七八九十]{1,3}|封|条){1,6}(?:邮件|电子邮件|信件)",
  ),
];

/** Words that turn an ask into a warning when they stand just before it. */
export const NEGATION =
  /(?:(?<![\p{L}])(?:never|not|no one|nobody|nunca|nie|niemals|jamais|ne|non)(?![\p{L}])|n['’]t)\W{0,3}(?:\w{1,15}\W{1,3}){0,6}$/iu;
