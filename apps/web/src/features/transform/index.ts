export { TransformStudio, type TransformStudioProps } from './components/transform-studio';
export type { PersonaFields } from './components/persona-dialog';
